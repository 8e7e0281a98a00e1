import Foundation

/// A one-shot HTTP/1.1 request over loopback TCP, for driving servers' HTTP routes in tests
/// without an HTTP client dependency.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: String
  /// The body's bytes as they came (a compressed body is not text); chunked: dechunked text's.
  public var bodyBytes: [UInt8] = []
}

public enum HTTPRequestError: Error, CustomStringConvertible {
  case connectFailed(Int32)
  case malformedResponse(String)

  public var description: String {
    switch self {
    case .connectFailed(let code): "cannot connect: errno \(code)"
    case .malformedResponse(let text): "malformed HTTP response: \(text.prefix(80))"
    }
  }
}

public func httpRequest(
  _ method: String, port: Int, path: String, body: String = "", headers: [String: String] = [:]
) throws -> HTTPResponse {
  var request = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
  if !headers.keys.contains(where: { $0.lowercased() == "host" }) {
    request += "Host: 127.0.0.1:\(port)\r\n"
  }
  for (name, value) in headers { request += "\(name): \(value)\r\n" }
  request += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
  return try rawHTTPRequest(port: port, request)
}

/// Sends `request` exactly as given (no Host added, any framing) and reads until the server
/// closes, or only the response head with `headOnly` (a 101 keeps the connection): for
/// requests a well-behaved client would never send.
public func rawHTTPRequest(port: Int, _ request: String, headOnly: Bool = false) throws
  -> HTTPResponse
{
  guard let fd = loopbackConnection(port: port) else {
    throw HTTPRequestError.connectFailed(errno)
  }
  defer { close(fd) }
  let bytes = Array(request.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written > 0 else { throw HTTPRequestError.connectFailed(errno) }
    offset += written
  }
  var response: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = read(fd, &buffer, buffer.count)
    if count <= 0 { break }
    response += buffer[0..<count]
    if headOnly, response.count >= 4,
      response.indices.dropLast(3).contains(where: { response[$0..<$0 + 4] == [13, 10, 13, 10] })
    {
      break
    }
  }
  var parsed = try parse(String(decoding: response, as: UTF8.self))
  let headEnd = response.indices.dropLast(3).first { response[$0..<$0 + 4] == [13, 10, 13, 10] }
  parsed.bodyBytes =
    parsed.headers["transfer-encoding"]?.lowercased() == "chunked" || headEnd == nil
    ? Array(parsed.body.utf8) : Array(response[(headEnd! + 4)...])
  return parsed
}

private func parse(_ text: String) throws -> HTTPResponse {
  guard let split = text.range(of: "\r\n\r\n") else {
    throw HTTPRequestError.malformedResponse(text)
  }
  let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
  let statusParts = head.first?.split(separator: " ") ?? []
  guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
    throw HTTPRequestError.malformedResponse(text)
  }
  var headers: [String: String] = [:]
  for line in head.dropFirst() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
      .trimmingCharacters(in: .whitespaces)
  }
  var body = String(text[split.upperBound...])
  if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
  return HTTPResponse(status: status, headers: headers, body: body)
}

private func dechunk(_ body: String) -> String {
  var rest = Substring(body)
  var out = ""
  while let lineEnd = rest.range(of: "\r\n"),
    let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0
  {
    let start = lineEnd.upperBound
    let utf8 = rest.utf8
    guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else { break }
    out += rest[start..<end]
    rest = rest[end...].dropFirst(2)
  }
  return out
}

/// A TCP connection to `port` on 127.0.0.1, having sent `bytes` if any; the caller closes
/// it. `nil` (with `errno` set) if it could not connect.
public func loopbackConnection(port: Int, sending bytes: String? = nil) -> Int32? {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return nil }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    let code = errno
    close(fd)
    errno = code
    return nil
  }
  if let bytes { _ = bytes.withCString { write(fd, $0, strlen($0)) } }
  return fd
}
