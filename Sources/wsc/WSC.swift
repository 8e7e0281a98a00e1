import ArgumentParser
import CommandLineValues
import ProxyTunnel
import RFC6455
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

@main
struct WSC: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "wsc",
    abstract:
      "A raw WebSocket client: stdin lines go out as messages, messages come in as stdout lines.",
    discussion: """
      Binary messages print as base64; on a terminal, text messages print with control \
      characters and bidi controls escaped (--raw prints both as received). Exit status: 0 after a normal close; \
      2 refused handshake or proxy, 3 protocol error, 4 TLS failure, 5 timeout, 6 connection failed, \
      1 any other abnormal end, 64 bad usage. Durations: 1, 0.5, 500ms, 2s, 1m.
      """,
    version: ProjectVersion.current)

  @Argument(help: "ws:// or wss:// URL.") var url: String
  @Option(name: .customLong("header"), help: "An extra request header 'Name: value' (repeatable).")
  var headers: [String] = []
  @Option(help: "A subprotocol to offer (repeatable).") var subprotocol: [String] = []
  @Option(help: "The Origin header.") var origin: String?
  @Flag(help: "Do not offer permessage-deflate (compression, on by default).") var noDeflate = false
  @Flag(help: "Send stdin lines as binary messages.") var binary = false
  @Flag(help: "Print messages as received: binary without base64, text unescaped on a terminal.")
  var raw = false
  @Option(
    help: """
      Keep-alive ping interval, or 0 for none \
      (default \(DurationValue.format(Self.defaults.pingInterval ?? .zero)); none with --echo).
      """)
  var pingInterval: String?
  @Option(
    help: """
      Declare the connection dead without a pong this long \
      (default \(DurationValue.format(Self.defaults.pingTimeout))).
      """)
  var pingTimeout: String?
  @Option(
    help: """
      Largest message accepted, in bytes (default \(Self.defaults.protocolLimits.maxMessageSize)).
      """)
  var maxMessageSize: String?
  @Option(
    help: """
      Give up connecting (TCP, TLS, then the upgrade) after this long each \
      (default \(DurationValue.format(Self.defaults.connectTimeout))).
      """)
  var connectTimeout: String?
  @Option(help: ArgumentHelp(ProxySettings.proxyOptionHelp)) var proxy: String?
  @Flag(help: ArgumentHelp(ProxySettings.noProxyOptionHelp)) var noProxy = false
  @Flag(help: "Reconnect with backoff after connection failures and drops.") var reconnect = false
  @Option(help: "A PEM file of certificates to trust for wss://.") var caFile: String?
  @Flag(help: "Do not verify the server's certificate (test servers only).") var insecure = false
  @Option(help: "Exit after this many received messages, closing with 1000.") var count: Int?
  @Flag(help: "Send every received message back unchanged until the server closes.") var echo =
    false
  @Flag(help: "Print no messages.") var quiet = false
  @Flag(help: "Handshake and close details on stderr.") var verbose = false

  func run() async throws {
    let configuration: ClientConfiguration
    let target: WebSocketURL
    do {
      target = try WebSocketURL(url)
      configuration = try makeConfiguration()
    } catch {
      Diagnostics.fail("\(error)", status: .usage)
    }
    let client = WebSocketClient(url: target, configuration: configuration)
    let gate = OpenGate()
    let output = MessageOutput(raw: raw, quiet: quiet)
    client.start()
    if !echo { startSendingStdin(to: client, gate: gate) }

    // The options the loop reads, read once: each read of an option goes through the argument
    // parser's generic storage (a metadata lookup), which per message cost more than the engine.
    let (count, echo, verbose) = (self.count, self.echo, self.verbose)
    var received = 0
    var last: Disconnect?
    for await event in client.events {
      switch event {
      case .connecting(let attempt):
        if verbose { Diagnostics.note("connecting to \(target) (attempt \(attempt))") }
      case .opened(let subprotocol, _):
        if verbose {
          Diagnostics.note("connected" + (subprotocol.map { ", subprotocol \($0)" } ?? ""))
        }
        await gate.open()
      case .message(let message):
        // With --count, messages after the Nth (still buffered, or arriving during the close
        // handshake) are neither printed nor echoed.
        if let count, received >= count { continue }
        received += 1
        if echo {
          try? await client.send(message)
        } else {
          output.write(message)
        }
        if let count, received == count {
          await client.close(code: .normalClosure)
        }
      case .roundTrip(let time):
        if verbose { Diagnostics.note("pong after \(DurationValue.format(time))") }
      case .stalled(let waited):
        if verbose { Diagnostics.note("no pong for \(DurationValue.format(waited))") }
      case .disconnected(let disconnect):
        await gate.close()
        last = disconnect
        if verbose { Diagnostics.note("disconnected: \(disconnect)") }
      case .reconnecting(let delay, let attempt):
        if verbose {
          Diagnostics.note("reconnecting in \(DurationValue.format(delay)) (attempt \(attempt))")
        }
      }
    }
    let ending = last ?? .userClosed
    let status = ExitStatus(for: ending)
    if status != .success { Diagnostics.fail(Diagnostics.message(for: ending), status: status) }
  }

  static let maxUnsentLines = 64
  /// The library's defaults, which the options fall back to and their help states.
  static let defaults = ClientConfiguration()

  private func makeConfiguration() throws -> ClientConfiguration {
    var handshake = HandshakeOptions(
      origin: origin, subprotocols: subprotocol,
      deflate: noDeflate ? nil : Self.defaults.handshake.deflate)
    for header in headers {
      guard let colon = header.firstIndex(of: ":") else {
        throw ValidationError("--header needs 'Name: value', got '\(header)'")
      }
      let name = String(header[..<colon]).trimmingSpaces()
      let value = String(header[header.index(after: colon)...]).trimmingSpaces()
      handshake.extraHeaders.append(name: name, value: value)
    }
    var configuration = Self.defaults
    configuration.handshake = handshake
    configuration.tls = TLSOptions(caFile: caFile, insecure: insecure)
    configuration.proxy = try ProxySettings.commandLine(proxy: proxy, noProxy: noProxy)
    if let maxMessageSize {
      configuration.protocolLimits.maxMessageSize = try SizeValue.parse(maxMessageSize)
    }
    if let connectTimeout {
      configuration.connectTimeout = try DurationValue.parse(
        connectTimeout, atLeast: .milliseconds(1), option: "--connect-timeout")
      configuration.handshakeTimeout = configuration.connectTimeout
    }
    if let pingInterval {
      let interval = try DurationValue.parse(pingInterval)
      configuration.pingInterval = interval == .zero ? nil : interval
    } else if echo {
      configuration.pingInterval = nil  // conformance suites time every frame they see
    }
    if let pingTimeout {
      configuration.pingTimeout = try DurationValue.parse(
        pingTimeout, atLeast: .milliseconds(1), option: "--ping-timeout")
    }
    configuration.reconnect = reconnect ? ReconnectPolicy() : nil
    return configuration
  }

  /// Reads stdin on its own thread (reads block); each line is sent once connected. At the
  /// end of input the connection closes with 1000, unless --count waits for replies. At most
  /// `maxUnsentLines` lines wait in memory: past that the reader stops, so `wsc < hugefile`
  /// against a slow server holds the file back in the pipe instead of buffering all of it.
  private func startSendingStdin(to client: WebSocketClient, gate: OpenGate) {
    let lines = StandardInputLines(capacity: Self.maxUnsentLines)
    let asBinary = binary
    let closeAtEnd = count == nil
    Task {
      for await line in lines {
        while true {
          await gate.waitUntilOpen()
          do throws(ClientError) {
            if asBinary {
              try await client.send(binary: Array(line.utf8))
            } else {
              try await client.send(text: line)
            }
            break
          } catch .notConnected {
            // Reconnecting, and the gate has not heard yet: retry shortly, without spinning.
            try? await Task.sleep(for: .milliseconds(50))
            continue
          } catch {
            Diagnostics.note("not sent: \(error)")
            break
          }
        }
      }
      // Close only once connected: if the connection fails instead, its error is the result.
      if closeAtEnd {
        await gate.waitUntilOpen()
        await client.close(code: .normalClosure)
      }
    }
  }
}
