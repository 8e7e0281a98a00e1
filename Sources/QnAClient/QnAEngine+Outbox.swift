import QnA
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

/// The one task that puts the reducer's messages on the wire, in the order it released them.
extension QnAEngine {
  /// The question a change reports the server's answer to (created, refused for now or for
  /// good), if it is one.
  static func answeredQuestion(_ change: QnAChange) -> Question? {
    switch change {
    case .created(let question, _), .waiting(let question, _, _), .failed(let question, _):
      question
    default: nil
    }
  }

  /// What the outbox sends, in order.
  enum Outgoing: Sendable {
    case question(NewQuestion, UUID, attempt: Int)
    /// A message for the connection of `attempt` only (`resume`, `join`, `vote`): it names
    /// that connection; if it is gone, the next handshake makes new ones.
    case other(WireMessage, attempt: Int)
    /// A join that pays for a new identity (extension `identityWork`): what comes after it
    /// waits while the work is done, so that the server knows the asker first.
    case paidJoin(Join, IdentityWork, attempt: Int)
  }

  func drainOutbox(_ messages: AsyncStream<Outgoing>) async {
    for await outgoing in messages {
      switch outgoing {
      case .question(let message, let token, let attempt):
        // Requeued by a disconnect while it waited here: the next handshake sends it anew.
        guard let question = state.question(token: token), question.status == .sending,
          message.id == state.connectionID
        else {
          // Stale: unless the question is on its way again on the connection now, nothing
          // will report this send.
          if state.question(token: token)?.status != .sending { sendsUnreported.remove(token) }
          continue
        }
        if await write(.newQuestion(message), onAttempt: attempt) {
          // Unless its answer came first, and with it the report (`apply`).
          if sendsUnreported.remove(token) != nil {
            updateSink.post(changes: [.sent(state.question(token: token) ?? question)])
          }
        } else if message.id == state.connectionID {
          sendsUnreported.remove(token)
          // Only while that connection is still current: after a new handshake the question
          // has already gone out again, and this failure must not requeue it.
          apply(.sendFailed(token))
        }
      case .other(let message, let attempt):
        _ = await write(message, onAttempt: attempt)
      case .paidJoin(var join, let price, let attempt):
        guard join.id == state.connectionID else { continue }
        let started = clock.now
        join.work = await IdentityWorkSolver.nonces(for: price, connection: join.id)
        log("room: paid for an identity in \(clock.now - started)")
        _ = await write(.join(join), onAttempt: attempt)
      }
    }
  }

  /// Encodes and sends one message on the connection of `attempt`; false (logged) if that
  /// connection is gone.
  func write(_ message: WireMessage, onAttempt attempt: Int) async -> Bool {
    do {
      try await client.send(
        Self.frame(codec.encode(message), binary: sendsBinary), onAttempt: attempt)
      return true
    } catch {
      log("\(message.type) not sent (\(error)); the next connection sends it again")
      return false
    }
  }
}

extension QnAEngine {
  /// The wire codec as the channel's: JSON in binary frames (or text ones, `--text`).
  static func coding(sendsBinary: Bool) -> TypedChannel<WireMessage, WireMessage>.Coding {
    let codec = WireCodec()
    return .init(
      decode: { message in try codec.decode(message.data) },
      encode: { message in frame(codec.encode(message), binary: sendsBinary) })
  }

  static func frame(_ bytes: [UInt8], binary: Bool) -> WebSocketMessage {
    binary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self))
  }
}
