/// Headers every response carries: no page of this server may be framed (clickjacking), no
/// response is sniffed into another type, and a page runs only the server's own scripts and
/// styles, never an inline one, and talks to no other host.
package enum SecurityHeaders {
  package static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    + "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    + "frame-ancestors 'none'"
  package static let fields: [(String, String)] = [
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", contentSecurityPolicy),
    ("X-Content-Type-Options", "nosniff"),
  ]
}
