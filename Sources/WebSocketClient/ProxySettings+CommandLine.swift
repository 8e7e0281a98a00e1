import ProxyTunnel

#if canImport(Glibc)
  import Glibc
#endif

extension ProxySettings {
  /// The help of `--proxy`, and of `--no-proxy`, as every program states them.
  public static let proxyOptionHelp = """
    Connect through this proxy: http://[user:pass@]host:port (CONNECT) or \
    socks5://[user:pass@]host:port. Default: $http_proxy for ws://, $https_proxy for wss://, \
    else $all_proxy, except the hosts in $no_proxy.
    """
  public static let noProxyOptionHelp = "Connect directly, whatever the proxy variables say."

  /// What a program's `--proxy URL` and `--no-proxy` decide, and otherwise the environment
  /// (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`, either case). `--proxy` takes every
  /// connection through that proxy, whatever `no_proxy` says.
  public static func commandLine(proxy: String?, noProxy: Bool) throws(ProxyOptionError)
    -> ProxySettings
  {
    if noProxy {
      guard proxy == nil else { throw .conflicting }
      return .direct
    }
    if let proxy {
      do {
        return .always(try ProxyEndpoint(proxy))
      } catch {
        throw .badProxy(error)
      }
    }
    do {
      return try .environment { name in getenv(name).map { String(cString: $0) } }
    } catch {
      throw .badEnvironment(error)
    }
  }
}

public enum ProxyOptionError: Error, Sendable, Hashable, CustomStringConvertible {
  case conflicting
  case badProxy(ProxyURLError)
  case badEnvironment(ProxySettingsError)

  public var description: String {
    switch self {
    case .conflicting: "--proxy and --no-proxy exclude each other"
    case .badProxy(let error): "--proxy: \(error)"
    case .badEnvironment(let error): "\(error) (or run with --no-proxy)"
    }
  }
}
