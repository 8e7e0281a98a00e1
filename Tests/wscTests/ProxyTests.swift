import Foundation
import TestSupport
import Testing

/// `wsc` through real proxies on loopback, as a user behind one runs it: the environment's
/// variables or `--proxy`, HTTP CONNECT (tinyproxy) and SOCKS5 (dante, pproxy), ws and wss.
@Suite("wsc through real proxies", .serialized)
struct ProxyTests {
  let runner = WscTests()

  /// One message there and back through whatever the environment and `options` choose.
  func echo(
    _ url: String, environment: [String: String] = [:], _ options: [String] = []
  ) throws -> WscTests.Run {
    try runner.wsc(
      [url, "--count", "1", "--connect-timeout", "5s"] + options, stdin: "through the proxy\n",
      environment: environment)
  }

  func expectEchoed(_ run: WscTests.Run, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout == "through the proxy\n", sourceLocation: sourceLocation)
  }

  @Test func wsGoesThroughTheHTTPProxyOfTheEnvironment() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let proxy = try ProxyProcess.tinyproxy()
    // Loopback is not exempt: the proxy sees the request.
    expectEchoed(
      try echo(
        "ws://127.0.0.1:\(server.port)/echo", environment: ["http_proxy": "http://\(proxy.url)"]))
    #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port) HTTP/1.1"), "\(proxy.log)")
  }

  @Test func wssGoesThroughTheTunnelWithBasicAuthAndTheServersName() throws {
    let tls = try TestCertificate()
    let server = try tls.echoServer()
    let proxy = try ProxyProcess.tinyproxy(credentials: ("alice", "s3cret-pw"))
    let run = try echo(
      "wss://localhost:\(server.port)/echo",
      environment: ["HTTPS_PROXY": "http://alice:s3cret-pw@\(proxy.url)"],
      ["--ca-file", tls.certificate, "--verbose"])
    expectEchoed(run)
    #expect(proxy.log.contains("CONNECT localhost:\(server.port) HTTP/1.1"), "\(proxy.log)")
    #expect(!run.stderr.contains("s3cret"))
  }

  @Test func aProxyThatWantsCredentialsRefusesWith407AndIsNotRetried() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let proxy = try ProxyProcess.tinyproxy(credentials: ("alice", "s3cret-pw"))
    for credentials in ["", "alice:wrong@"] {
      // --reconnect: the policy, not a missing option, is what stops the attempts.
      let run = try echo(
        "ws://127.0.0.1:\(server.port)/echo",
        environment: ["http_proxy": "http://\(credentials)\(proxy.url)"], ["--reconnect"])
      // tinyproxy answers a CONNECT without credentials with 401 (a GET gets 407).
      #expect(run.status == 2)
      #expect(
        run.stderr.hasPrefix("wsc: the proxy http://\(proxy.url) refused the tunnel with HTTP 40"),
        "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1)
      #expect(!run.stderr.contains("wrong"))
    }
  }

  @Test func aProxyThatForbidsOrCannotReachSaysSo() throws {
    let forbidding = try ProxyProcess.tinyproxy(allowedClients: "10.0.0.0/8")
    let forbidden = try echo(
      "ws://127.0.0.1:9/echo", environment: ["http_proxy": "http://\(forbidding.url)"])
    #expect(forbidden.status == 2)
    #expect(forbidden.stderr.contains("refused the tunnel with HTTP 403"), "\(forbidden.stderr)")
    let proxy = try ProxyProcess.tinyproxy()
    let nobody = try ProxyProcess.unusedPort()
    let unreachable = try echo(
      "ws://127.0.0.1:\(nobody)/echo", environment: ["http_proxy": "http://\(proxy.url)"])
    #expect(unreachable.status == 2)
    #expect(
      unreachable.stderr.contains("refused the tunnel with HTTP 500"), "\(unreachable.stderr)")
  }

  @Test func wsAndWssGoThroughDanteFromAllProxy() throws {
    let plain = try PeerProcess(script: "echo_server.py")
    let tls = try TestCertificate()
    let secure = try tls.echoServer()
    let proxy = try ProxyProcess.dante()
    let environment = ["ALL_PROXY": "socks5://\(proxy.url)"]
    expectEchoed(try echo("ws://127.0.0.1:\(plain.port)/echo", environment: environment))
    // A name, resolved by the proxy; TLS verified against it inside the tunnel.
    expectEchoed(
      try echo(
        "wss://localhost:\(secure.port)/echo", environment: environment,
        ["--ca-file", tls.certificate]))
    // dante allows loopback destinations only: anything else is refused by its rules.
    let blocked = try echo("ws://192.0.2.1:80/", environment: environment)
    #expect(blocked.status == 2)
    #expect(blocked.stderr.contains("connection not allowed by ruleset"), "\(blocked.stderr)")
  }

  @Test func socks5WithAUserNameAndPassword() throws {
    let plain = try PeerProcess(script: "echo_server.py")
    let tls = try TestCertificate()
    let secure = try tls.echoServer()
    let proxy = try ProxyProcess.pproxySOCKS5(user: "bob", password: "pw%with:colon")
    let credentials = "bob:pw%25with%3Acolon"
    expectEchoed(
      try echo(
        "ws://127.0.0.1:\(plain.port)/echo", ["--proxy", "socks5://\(credentials)@\(proxy.url)"]))
    expectEchoed(
      try echo(
        "wss://localhost:\(secure.port)/echo",
        environment: ["https_proxy": "socks5h://\(credentials)@\(proxy.url)"],
        ["--ca-file", tls.certificate]))
    let wrong = try echo(
      "ws://127.0.0.1:\(plain.port)/echo", ["--proxy", "socks5://bob:nope@\(proxy.url)"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("rejected the user name and password"), "\(wrong.stderr)")
    let none = try echo("ws://127.0.0.1:\(plain.port)/echo", ["--proxy", "socks5://\(proxy.url)"])
    // pproxy closes instead of answering 0xFF: retried as a transient failure, with a hint.
    #expect(none.status == 2)
    #expect(none.stderr.contains("it may want a user name and password"), "\(none.stderr)")
  }

  @Test func noProxyAndTheOptionsDecideOverTheVariables() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let url = "ws://127.0.0.1:\(server.port)/echo"
    let dead = "http://127.0.0.1:\(try ProxyProcess.unusedPort())"
    let through = try echo(url, environment: ["http_proxy": dead])
    #expect(through.status == 6, "a proxy that is down fails the connection")
    #expect(through.stderr.contains("(the proxy \(dead))"), "\(through.stderr)")
    expectEchoed(
      try echo(url, environment: ["http_proxy": dead, "no_proxy": "localhost,127.0.0.1"]))
    expectEchoed(try echo(url, environment: ["HTTP_PROXY": dead, "NO_PROXY": "127.0.0.0/8"]))
    expectEchoed(try echo(url, environment: ["all_proxy": dead, "no_proxy": "*"]))
    expectEchoed(try echo(url, environment: ["http_proxy": dead], ["--no-proxy"]))
    let proxy = try ProxyProcess.tinyproxy()
    expectEchoed(
      try echo(
        url, environment: ["http_proxy": dead, "no_proxy": "*"], ["--proxy", "http://\(proxy.url)"])
    )
    #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port)"))
  }

  @Test func aProxyVariableOrOptionThatDoesNotParseIsAUsageError() throws {
    let bad = try echo(
      "ws://127.0.0.1:9/", environment: ["https_proxy": "ftp://x", "http_proxy": "x y"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("http_proxy: bad proxy host or port"), "\(bad.stderr)")
    let both = try echo("ws://127.0.0.1:9/", ["--proxy", "http://x:1", "--no-proxy"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--proxy and --no-proxy exclude each other"))
    let option = try echo("ws://127.0.0.1:9/", ["--proxy", "socks4://x"])
    #expect(option.status == 64)
    #expect(option.stderr.contains("--proxy: unsupported proxy scheme socks4"), "\(option.stderr)")
  }
}
