import Foundation
import QnA
import Synchronization

/// A change another instance committed, as PostgreSQL's `NOTIFY` carried it. It names what
/// changed, never the change: the receiver re-reads the rows by sequence, so a notice lost or
/// doubled loses or doubles nothing.
package struct RoomNotice: Sendable, Hashable {
  /// The instance that made the change (its own notices are not news to it).
  package var origin: UUID
  package var session: Int64
  package var kind: RoomChange
  package var question: UUID?
  /// When the sender wrote the notice, in milliseconds since 1970 by its clock: the lag
  /// `/metrics` reports (`nil` from an instance that predates it).
  package var sentAt: Int64?

  /// `qna2 ORIGIN SESSION KIND QUESTION|- SENT`: about 100 bytes, far under the 8,000
  /// NOTIFY takes. `qna1` (the same without SENT) is still read, from older instances.
  package var payload: String {
    "qna2 \(origin.text) \(session) \(kind.rawValue) \(question?.text ?? "-") "
      + "\(sentAt ?? 0)"
  }

  package init(
    origin: UUID, session: Int64, kind: RoomChange, question: UUID?, sentAt: Int64? = nil
  ) {
    self.origin = origin
    self.session = session
    self.kind = kind
    self.question = question
    self.sentAt = sentAt
  }

  /// `nil` for a payload this version does not read (a newer instance's, or anyone's
  /// `NOTIFY` on the channel): the receiver then re-reads every room, to be safe.
  package init?(payload: String) {
    let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
    let version = fields.first
    guard (version == "qna1" && fields.count == 5) || (version == "qna2" && fields.count == 6),
      let origin = UUID(text: String(fields[1])), let session = Int64(fields[2]),
      let kind = RoomChange(rawValue: String(fields[3]))
    else { return nil }
    let question = fields[4] == "-" ? nil : UUID(text: String(fields[4]))
    if fields[4] != "-", question == nil { return nil }
    var sentAt: Int64?
    if fields.count == 6 {
      guard let sent = Int64(fields[5]), sent >= 0 else { return nil }
      sentAt = sent
    }
    self.init(origin: origin, session: session, kind: kind, question: question, sentAt: sentAt)
  }
}

/// What reaches an instance from the others on its database.
package enum RoomFeedEvent: Sendable, Hashable {
  /// `own`: this instance made the change (its room re-reads all the same: a call that gave
  /// up at its time limit may have committed after all).
  case changed(RoomNotice, own: Bool)
  /// Notices may have been missed (the listening connection was down, or one could not be
  /// read): every room re-reads its log from its last sequence number.
  case resync
}

/// The other instances' changes, as a stream the server consumes once.
package final class RoomFeed: Sendable {
  package let events: AsyncStream<RoomFeedEvent>
  private let continuation: AsyncStream<RoomFeedEvent>.Continuation
  private let start: @Sendable (AsyncStream<RoomFeedEvent>.Continuation) -> Task<Void, Never>
  private let listener = Mutex<Task<Void, Never>?>(nil)

  /// `start` listens, feeding `events`, until its task is cancelled.
  package init(
    start: @escaping @Sendable (AsyncStream<RoomFeedEvent>.Continuation) -> Task<Void, Never>
  ) {
    // Unbounded: a notice is a few dozen bytes, and its consumer only schedules a re-read.
    let (events, continuation) = AsyncStream<RoomFeedEvent>.makeStream()
    self.events = events
    self.continuation = continuation
    self.start = start
  }

  /// Starts listening, the first time it is called.
  package func listen() {
    listener.withLock { task in
      if task == nil { task = start(continuation) }
    }
  }

  package func finish() {
    listener.withLock { $0?.cancel() }
    continuation.finish()
  }
}
