import ArgumentParser
import ProxyTunnel
import WebSocketClient

/// `--proxy` and `--no-proxy`, shared by the attendee's client and the presenter's console.
struct ProxyOptions: ParsableArguments {
  @Option(help: ArgumentHelp(ProxySettings.proxyOptionHelp)) var proxy: String?
  @Flag(help: ArgumentHelp(ProxySettings.noProxyOptionHelp)) var noProxy = false

  func settings() throws -> ProxySettings {
    do {
      return try ProxySettings.commandLine(proxy: proxy, noProxy: noProxy)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
