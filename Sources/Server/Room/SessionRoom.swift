import Foundation
import Logging
import NIOCore
import QnA
import QnAStore
import Synchronization

/// One session's room on this instance: its view of the store, its fan-out, and the parts
/// that answer what its sockets send. Each part does one thing (`MessageRouter` reads a
/// message and hands it on; `QuestionIntake`, `Resumption`, `RoomJoins`, `VoteIntake` and
/// `PresenterActions` answer it; `AskerNotices` tells an asker what became of a question).
package final class SessionRoom: Sendable {
  package let store: QuestionStore
  /// Every open socket of every session (one per instance), for reaching an asker.
  package let sockets: SocketHub
  package let fanOut: RoomFanOut
  package let settings: RoomSettings
  package let environment: ServerEnvironment
  package let metrics: ServerMetrics
  package let hooks: RoomHooks
  /// New attendees' credentials per address for clients that send no work (extension
  /// `identityWork`), shared by every session of the instance.
  package let identities: AddressBudgets
  /// The form's questions per address, shared by every session of the instance.
  package let formQuestions: AddressBudgets
  /// The projector's head count, shared by every session of the instance.
  package let headCount: HeadCount
  /// Questions and votes per person (identity, or address without one), shared by sessions.
  package let people: PersonBudgets
  /// This session's word filter.
  package let wordFilters: WordFilters
  package let logger: Logger
  private let codec = WireCodec()
  /// Whether the session admits by ticket, and when that was read (`admitsByTicket`).
  let ticketed = Mutex<(answer: Bool, at: Duration)?>(nil)

  package init(
    store: QuestionStore, sockets: SocketHub, settings: RoomSettings,
    environment: ServerEnvironment, metrics: ServerMetrics, hooks: RoomHooks = .none,
    identities: AddressBudgets? = nil, formQuestions: AddressBudgets? = nil,
    headCount: HeadCount? = nil, people: PersonBudgets? = nil, logger: Logger
  ) {
    let fanOut = RoomFanOut(
      reads: store, clock: environment.clock, window: settings.window,
      spacedByCost: settings.spacedByCost,
      cost: FanOutCost { [metrics] in metrics.broadcastWrites.increment(by: $0 / .seconds(1)) },
      deflaters: settings.deflaters,
      fanOutTime: metrics.fanOut.record, spaced: { [store] in store.spaceVoteCommits($0) },
      logger: logger)
    self.fanOut = fanOut
    // Every write through the room's store that changes the room reaches its fan-out: the
    // handlers only write.
    self.store = store.notifying { pace in
      switch pace {
      case .now: fanOut.changed(urgent: true)
      case .window: fanOut.changed(urgent: false)
      case .committed: fanOut.committed()
      case .unhurried: fanOut.changedUnhurried()
      }
    }
    self.sockets = sockets
    self.settings = settings
    self.environment = environment
    self.metrics = metrics
    self.hooks = hooks
    self.identities =
      identities
      ?? AddressBudgets(burst: settings.newAttendeesPerAddress, window: settings.newAttendeeWindow)
    self.formQuestions =
      formQuestions
      ?? AddressBudgets(
        burst: settings.formQuestionsPerAddress, window: settings.formQuestionWindow)
    self.headCount = headCount ?? HeadCount(store: store, now: environment.now, logger: logger)
    self.people =
      people
      ?? PersonBudgets(
        questions: settings.questionsPerPerson, votes: settings.votesPerPerson,
        window: settings.personWindow)
    self.logger = logger
    wordFilters = WordFilters(store: store, server: settings.serverFilter)
    // A quiz opened before this instance had the room (a restart, another instance that
    // stopped) still closes on time.
    let intake = PollIntake(room: self)
    Task { await intake.closeTimedPolls() }
  }

  /// This room for another session: that session's view of the store and a fan-out of its
  /// own, the same sockets, settings and environment.
  package func forSession(_ id: Int64) -> SessionRoom {
    SessionRoom(
      store: store.session(id), sockets: sockets, settings: settings, environment: environment,
      metrics: metrics, hooks: hooks, identities: identities, formQuestions: formQuestions,
      headCount: headCount, people: people, logger: logger)
  }

  /// A socket's join: counted (extension `audience`; `attendee` is the identity the join was
  /// issued or proved, `nil` for none), then welcomed by the fan-out.
  package func enter(_ connection: SocketConnection, _ join: Join, attendee: UUID?) {
    headCount.joined(connection, session: store.session, attendee: attendee, fanOut: fanOut)
    fanOut.join(connection, join, attendee: attendee)
  }

  /// A socket ended: no longer counted, nor in the fan-out.
  package func leave(_ connection: UUID) {
    headCount.left(connection)
    fanOut.leave(connection)
  }

  /// Queues a message for one socket (written after the hooks' delay, if any, in order); it
  /// returns at once, whatever the socket's reader does.
  package func send(_ message: WireMessage, to connection: SocketConnection) {
    send(raw: ByteBuffer(bytes: codec.encode(message)), to: connection)
  }

  /// `compressed: false`: a message whose compression would cost more than the bytes it
  /// saves (RFC 7692 lets any message go uncompressed).
  package func send(raw bytes: ByteBuffer, to connection: SocketConnection, compressed: Bool = true)
  {
    let due = hooks.sendDelay.map { environment.uptime() + $0 }
    connection.send(
      OutgoingMessage(bytes, deflaters: compressed ? settings.deflaters : nil), due: due)
  }

  /// Waits until this socket may do `count` lookups: a flood of resends or resumes slows
  /// its sender (its messages wait, TCP pushes back), never anyone else.
  package func pace(_ count: Int, for connection: SocketConnection) async {
    let wait = connection.spendLookups(count, now: environment.uptime())
    if wait > .zero { try? await Task.sleep(for: wait) }
  }

  /// One message from a socket of this room.
  package func receive(_ bytes: [UInt8], from connection: SocketConnection) async {
    await MessageRouter(room: self).receive(bytes, from: connection)
  }

  /// One presenter action, from any presenter (socket, page or API), exactly once per token.
  package func perform(
    _ action: PresenterActionKind, on id: UUID, text: String? = nil, isPrivate: Bool = false,
    token: UUID
  ) async throws(StoreError) -> QuestionStore.ActionOutcome? {
    try await PresenterActions(room: self).perform(
      action, on: id, text: text, isPrivate: isPrivate, token: token)
  }

  /// Marks a question answered (with no text) for the existing back ends' routes; `nil` if
  /// there is no such question.
  package func answer(_ id: UUID) async throws(StoreError) -> StoredQuestion? {
    try await perform(.answer, on: id, token: environment.makeID())?.question
  }
}
