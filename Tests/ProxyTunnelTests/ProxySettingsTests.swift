import ProxyTunnel
import Testing

@Suite struct ProxySettingsTests {
  func settings(_ variables: [String: String]) throws(ProxySettingsError) -> ProxySettings {
    try ProxySettings.environment { variables[$0] }
  }

  @Test func eachSchemeHasItsVariableAndAllProxyFillsIn() throws {
    let both = try settings([
      "http_proxy": "http://plain:3128", "HTTPS_PROXY": "socks5h://secure:1080",
    ])
    #expect(both.proxy(host: "example.com", port: 80, isSecure: false)?.host == "plain")
    #expect(both.proxy(host: "example.com", port: 443, isSecure: true)?.host == "secure")
    let onlyAll = try settings(["ALL_PROXY": "socks5://all"])
    #expect(onlyAll.proxy(host: "a", port: 80, isSecure: false)?.port == 1080)
    #expect(onlyAll.proxy(host: "a", port: 443, isSecure: true)?.kind == .socks5)
    #expect(try settings([:]).proxy(host: "a", port: 80, isSecure: false) == nil)
  }

  @Test func theLowerCaseSpellingWinsEvenWhenEmpty() throws {
    let lower = try settings(["http_proxy": "http://lower:1", "HTTP_PROXY": "http://upper:2"])
    #expect(lower.proxy(host: "a", port: 80, isSecure: false)?.host == "lower")
    let emptied = try settings(["http_proxy": "", "HTTP_PROXY": "http://upper:2"])
    #expect(emptied.proxy(host: "a", port: 80, isSecure: false) == nil)
    let bypass = try settings([
      "http_proxy": "http://p:1", "no_proxy": "", "NO_PROXY": "*",
    ])
    #expect(bypass.proxy(host: "a", port: 80, isSecure: false) != nil)
  }

  @Test func loopbackGoesThroughTheProxyUnlessNamed() throws {
    let plain = try settings(["http_proxy": "http://p:1"])
    #expect(plain.proxy(host: "127.0.0.1", port: 80, isSecure: false) != nil)
    #expect(plain.proxy(host: "localhost", port: 80, isSecure: false) != nil)
    let named = try settings(["http_proxy": "http://p:1", "no_proxy": "localhost,127.0.0.1"])
    #expect(named.proxy(host: "127.0.0.1", port: 80, isSecure: false) == nil)
    #expect(named.proxy(host: "LOCALHOST.", port: 80, isSecure: false) == nil)
  }

  @Test(arguments: [
    ("example.com", "example.com", 80, true),
    ("example.com", "api.example.com", 80, true),
    (".example.com", "example.com", 80, true),
    ("*.example.com", "a.b.example.com", 80, true),
    ("example.com", "badexample.com", 80, false),
    ("example.com:8080", "example.com", 8080, true),
    ("example.com:8080", "example.com", 80, false),
    ("127.0.0.1", "127.0.0.1", 1, true),
    ("127.0.0.1", "127.0.0.2", 1, false),
    ("10.0.0.0/8", "10.20.30.40", 1, true),
    ("10.0.0.0/8", "11.0.0.1", 1, false),
    ("::1", "::1", 1, true),
    ("[::1]", "::1", 1, true),
    ("[::1]:9000", "::1", 9000, true),
    ("[::1]:9000", "::1", 9001, false),
    ("*", "anything.example", 1, true),
    ("a.example, b.example", "b.example", 1, true),
    ("nonsense/99", "nonsense", 1, false),
  ])
  func noProxyEntries(_ list: String, _ host: String, _ port: Int, _ bypassed: Bool) {
    #expect(NoProxyList(list).matches(host: host, port: port) == bypassed)
  }

  @Test func aVariableThatDoesNotParseIsNamedInTheError() {
    #expect(throws: ProxySettingsError.self) { try settings(["https_proxy": "ftp://x"]) }
    do {
      _ = try settings(["HTTPS_PROXY": "ftp://x"])
    } catch {
      #expect(error.description.hasPrefix("https_proxy: unsupported proxy scheme ftp"))
    }
  }

  @Test func proxyURLs() throws {
    let full = try ProxyEndpoint("http://us%40er:p%3Ass@[::1]:3128/")
    #expect(full.host == "::1" && full.port == 3128 && full.kind == .httpConnect)
    #expect(full.credentials == ProxyCredentials(username: "us@er", password: "p:ss"))
    #expect(full.description == "http://[::1]:3128")
    #expect("\(full.credentials!)" == "<credentials>")
    #expect(try ProxyEndpoint("proxy.example:8080").kind == .httpConnect)
    #expect(try ProxyEndpoint("http://proxy.example").port == 80)
    #expect(try ProxyEndpoint("socks5h://u@h").credentials?.password == "")
    for bad in [
      "", "https://x", "socks4://x", "http://x/path", "http://x:0", "http://x:99999",
      "http://::1:80", "http://a b", "http://u%zz@x", "http://x\r\n:1",
    ] {
      #expect(throws: ProxyURLError.self, "\(bad.debugDescription)") { try ProxyEndpoint(bad) }
    }
  }
}
