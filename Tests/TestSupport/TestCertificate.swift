import Foundation

/// A self-signed certificate for `localhost` and 127.0.0.1, made by openssl for one test,
/// in a directory removed when the object goes.
public final class TestCertificate: Sendable {
  public let certificate: String
  public let key: String
  private let directory: URL

  public init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qna-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    certificate = directory.appendingPathComponent("cert.pem").path
    key = directory.appendingPathComponent("key.pem").path
    let run = try ProgramRun(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
        "-days", "1", "-subj", "/CN=localhost", "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ])
    guard run.status == 0 else { throw TestCertificateError.openssl(run.errors) }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The echo server of Tests/Interop over TLS with this certificate.
  public func echoServer() throws -> PeerProcess {
    try PeerProcess(script: "echo_server.py", arguments: ["--cert", certificate, "--key", key])
  }
}

public enum TestCertificateError: Error {
  case openssl(String)
}
