import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
import QnA
import QnARoom
import QnAStore
import Synchronization
import TestSupport

/// A room the fan-out reads instead of a store: questions and a log of which question each
/// sequence number changed, read the way the store reads them, with reads that fail on demand
/// and a count of each kind of read.
final class TestRoom: RoomReads {
  struct State {
    var questions: [UUID: RoomQuestion] = [:]
    /// `log[seq - 1]`: the question that change `seq` touched.
    var log: [UUID] = []
    var failing = false
    var snapshotReads = 0
    var changeReads = 0
  }

  let epoch = uuid(1, group: 0xE0)
  let state = Mutex(State())

  var seq: Int { state.withLock { $0.log.count } }
  var snapshotReads: Int { state.withLock { $0.snapshotReads } }
  var changeReads: Int { state.withLock { $0.changeReads } }
  var failing: Bool {
    get { state.withLock { $0.failing } }
    set { state.withLock { $0.failing = newValue } }
  }

  /// A new question, `length` characters long; its id.
  @discardableResult
  func ask(_ number: Int, length: Int = 20) -> UUID {
    let id = uuid(number, group: 0x0A)
    state.withLock { state in
      state.questions[id] = RoomQuestion(
        id: id, content: String(repeating: "q", count: length), votes: 0, answered: false,
        createdAt: Date(timeIntervalSinceReferenceDate: Double(number)))
      state.log.append(id)
    }
    return id
  }

  func vote(_ id: UUID) {
    state.withLock { state in
      state.questions[id]?.votes += 1
      state.log.append(id)
    }
  }

  func votes(_ id: UUID) -> Int { state.withLock { $0.questions[id]?.votes ?? 0 } }

  private func check() throws(StoreError) {
    if failing { throw .unavailable("the test's database is down") }
  }

  func roomEpoch() async throws(StoreError) -> UUID {
    try check()
    return epoch
  }

  func currentSeq() async throws(StoreError) -> Int {
    try check()
    return seq
  }

  func view(of attendee: UUID, presenter: Bool) async throws(StoreError) -> AttendeeView {
    try check()
    return .none
  }

  func snapshot(for attendee: UUID?, presenter: Bool) async throws(StoreError)
    -> StoredRoomSnapshot
  {
    try check()
    return state.withLock { state in
      state.snapshotReads += 1
      let questions = state.questions.values.sorted { $0.createdAt < $1.createdAt }
      return (state.log.count, questions, nil, nil, nil, [], [])
    }
  }

  func changes(after: Int, upTo: Int, presenter: Bool) async throws(StoreError) -> RoomChanges {
    try check()
    return state.withLock { state in
      state.changeReads += 1
      let touched = Set(state.log[after..<upTo])
      let questions = touched.compactMap { state.questions[$0] }
        .sorted { $0.createdAt < $1.createdAt }
      return RoomChanges(delta: RoomDelta(from: after + 1, to: upTo, questions: questions))
    }
  }
}

/// A socket of the room whose peer is the test: what it is sent, decoded, in order, and its
/// reading paused and resumed on demand (a paused peer takes nothing, so what is sent queues).
struct TestPeer {
  let inbox: PeerInbox
  let connection: SocketConnection
  let attendee: UUID

  init(_ number: Int, presenter: Bool = false) {
    let inbox = PeerInbox()
    self.inbox = inbox
    attendee = uuid(number, group: 0xA0)
    connection = SocketConnection(
      id: uuid(number, group: 0xC1), channel: EmbeddedChannel(), output: .library(inbox),
      openedAt: Date(timeIntervalSinceReferenceDate: 0), isPresenter: presenter, address: nil,
      questionBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
      lookupBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
      joinBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
      maxQueuedBytes: 8 << 20, allQueued: SendBudget(limit: 1 << 30), uptime: { .zero })
  }

  /// Its join: the whole room, or what changed since `since` in `epoch`.
  func join(since: Int? = nil, epoch: UUID? = nil) -> Join {
    Join(id: connection.id, attendee: attendee, since: since, epoch: epoch)
  }

  var messages: [WireMessage] { inbox.messages }
  var snapshots: [RoomSnapshot] {
    messages.compactMap { if case .room(let page) = $0 { page } else { nil } }
  }
  var deltas: [RoomDelta] {
    messages.compactMap { if case .roomDelta(let delta) = $0 { delta } else { nil } }
  }
  /// The last sequence number it has whole (a snapshot's last page, a delta's last page).
  var seen: Int? {
    switch messages.last {
    case .room(let page): page.part == page.parts ? page.seq : nil
    case .roomDelta(let delta): delta.completes ? delta.to : nil
    default: nil
    }
  }
}

final class PeerInbox: SocketWriter {
  private let received = Mutex<[WireMessage]>([])
  private let paused = Atomic(false)

  var messages: [WireMessage] { received.withLock { $0 } }
  func pause() { paused.store(true, ordering: .relaxed) }
  func resume() { paused.store(false, ordering: .relaxed) }

  func write(_ bytes: ByteBuffer) async throws {
    while paused.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(1)) }
    let message = try WireCodec().decode(Array(buffer: bytes))
    received.withLock { $0.append(message) }
  }

  func close(_ code: WebSocketErrorCode, reason: String) async throws {}
}
