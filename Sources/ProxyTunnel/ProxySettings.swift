/// Which proxy, if any, a connection to a `ws://` or `wss://` URL goes through.
///
/// Read from the environment as curl, websocat and Python `websockets` read it:
/// `http_proxy` for `ws://`, `https_proxy` for `wss://`, `all_proxy` for either when the
/// specific one is unset, and `no_proxy` for the destinations that go direct. Each may be
/// spelled in upper case; where both spellings are set, the lower-case one wins, and a
/// variable set to nothing means no proxy. Loopback destinations are not exempt: they go
/// through the proxy unless `no_proxy` names them.
public struct ProxySettings: Sendable, Hashable {
  /// For `ws://` destinations.
  public var http: ProxyEndpoint?
  /// For `wss://` destinations.
  public var https: ProxyEndpoint?
  /// For either, when the one for its scheme is not set.
  public var all: ProxyEndpoint?
  public var bypass: NoProxyList

  public init(
    http: ProxyEndpoint? = nil, https: ProxyEndpoint? = nil, all: ProxyEndpoint? = nil,
    bypass: NoProxyList = NoProxyList()
  ) {
    self.http = http
    self.https = https
    self.all = all
    self.bypass = bypass
  }

  /// Every connection direct (the library's default, and `--no-proxy`).
  public static let direct = ProxySettings()

  /// Every connection through `proxy`, whatever the environment says (`--proxy`).
  public static func always(_ proxy: ProxyEndpoint) -> ProxySettings {
    ProxySettings(all: proxy)
  }

  /// The settings the environment describes; `lookup` reads one variable (`getenv`, or a
  /// dictionary in tests). A proxy variable that does not parse is an error, not ignored:
  /// a user who set one expects it used.
  public static func environment(_ lookup: (String) -> String?) throws(ProxySettingsError)
    -> ProxySettings
  {
    func read(_ name: String) -> String? { lookup(name) ?? lookup(name.uppercased()) }
    func endpoint(_ name: String) throws(ProxySettingsError) -> ProxyEndpoint? {
      guard let value = read(name), !value.trimmingWhitespace().isEmpty else { return nil }
      do {
        return try ProxyEndpoint(value)
      } catch {
        throw ProxySettingsError(variable: name, error: error)
      }
    }
    return ProxySettings(
      http: try endpoint("http_proxy"), https: try endpoint("https_proxy"),
      all: try endpoint("all_proxy"), bypass: NoProxyList(read("no_proxy") ?? ""))
  }

  /// The proxy for `host:port` over TLS or not, or nil to connect directly.
  public func proxy(host: String, port: Int, isSecure: Bool) -> ProxyEndpoint? {
    guard let proxy = (isSecure ? https : http) ?? all else { return nil }
    return bypass.matches(host: host, port: port) ? nil : proxy
  }
}

/// A proxy variable that does not parse, named, so the user knows which one to fix.
public struct ProxySettingsError: Error, Sendable, Hashable, CustomStringConvertible {
  public var variable: String
  public var error: ProxyURLError

  public var description: String { "\(variable): \(error)" }
}
