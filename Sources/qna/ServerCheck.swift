import CommandLineValues
import QnA
import QnATerminal
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

/// Before the screen is taken: one connection, to learn whether the server lets this client
/// in, and into which session. A wrong token, a wrong join code or a closed session is a
/// clear error on the command line rather than a screen that says "offline".
enum ServerCheck {
  enum Outcome: Equatable {
    /// In; the handshake named this session (`nil`: none, or a server without sessions).
    case admitted(SessionInfo?)
    /// The upgrade was refused with this HTTP status.
    case refused(Int)
    /// Anything else (the server down, a bad certificate): the client starts and reconnects
    /// as usual, saying why on screen.
    case unknown
  }

  /// How long the handshake message may take once the socket is open.
  static let handshakeWait = Duration.seconds(5)

  static func probe(_ url: WebSocketURL, client configuration: ClientConfiguration) async
    -> Outcome
  {
    var once = configuration
    once.reconnect = nil
    once.pingInterval = nil
    let client = WebSocketClient(url: url, configuration: once)
    client.start()
    defer { Task { await client.close() } }
    let events = client.events
    let timeout = Task {
      try? await Task.sleep(for: handshakeWait)
      await client.close()
    }
    defer { timeout.cancel() }
    for await event in events {
      switch event {
      case .message(let message):
        guard case .handshake(let handshake)? = try? WireCodec().decode(message.data) else {
          return .admitted(nil)
        }
        return .admitted(handshake.session)
      case .disconnected(.refused(let error)):
        return error.statusCode.map(Outcome.refused) ?? .unknown
      case .disconnected: return .unknown
      default: continue
      }
    }
    return .unknown
  }

  /// Exits with a clear error unless `outcome` lets this client into session `code`: refused
  /// with 404 (no such session), or closed (unless `closedIsFine`: a presenter may still read
  /// and export it).
  static func requireSession(
    _ outcome: Outcome, code: String, url: WebSocketURL, closedIsFine: Bool = false
  ) {
    let server = "\(url.host):\(url.port)"
    switch outcome {
    case .refused(404):
      Headless.fail(
        Catalogue.format(tr("there is no session %1$s on %2$s: check the code"), code, server),
        status: .failed)
    case .admitted(nil):
      // Its one room, whatever the path: joining it by a code would be a lie.
      Headless.fail(
        Catalogue.format(
          tr("the server at %1$s has no sessions: it answered %2$s as its only room"), server,
          url.requestTarget),
        status: .failed)
    case .admitted(let session?) where session.code != code:
      Headless.fail(
        Catalogue.format(
          tr("the server at %1$s answered with session %2$s, not %3$s"), server,
          PrintableText.escaped(session.code), code), status: .failed)
    case .admitted(let session?) where !session.open && !closedIsFine:
      Headless.fail(
        Catalogue.format(
          tr("session %1$s (%2$s) is closed: it takes no new questions"), code,
          PrintableText.escaped(session.title)),
        status: .failed)
    default:
      break
    }
  }
}
