/// Headers every response carries: no page of this server may be framed (clickjacking), and
/// no response is sniffed into another type.
package enum SecurityHeaders {
  package static let fields: [(String, String)] = [
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", "frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
  ]
}
