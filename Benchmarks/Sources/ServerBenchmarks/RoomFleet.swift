import Foundation
import QnA
import RFC6455
import Synchronization
import WebSocketClient

/// Attendees in one room on the project's own engine: each joins, takes the snapshot,
/// counts the bytes it receives and records when each delta arrives; votes are sent with
/// their send time and answered with the room sequence number that counts them.
final class RoomFleet: Sendable {
  struct Member: Sendable {
    var connectionID: UUID?
    var attendee = UUID()
    var pagesSeen = 0
    var parts: Int?
    /// Payload bytes received since the counter was last reset.
    var bytes = 0
    /// Each delta's last sequence number and when it arrived, in arrival order.
    var deltas: [(to: Int, at: ContinuousClock.Instant)] = []
    var questionIDs: [UUID] = []
    /// The question this member asked, if any.
    var ownQuestion: UUID?
    /// Handshakes after the first: the server dropped this socket and the engine came back.
    var reconnects = -1
    /// The newest room sequence number a snapshot page brought (after a reconnect).
    var snapshotSeq = 0
    var joined: Bool { parts.map { pagesSeen >= $0 } ?? false }
    /// The room sequence number this member has reached, by delta or snapshot.
    var reachedSeq: Int { max(deltas.last?.to ?? 0, snapshotSeq) }
  }

  struct CastVote: Sendable {
    var sentAt: ContinuousClock.Instant
    var seq: Int?
    var success: Bool?
  }

  let clients: [WebSocketClient]
  private let members: Mutex<[Member]>
  private let votes = Mutex<[UUID: CastVote]>([:])
  private let readers: Mutex<[Task<Void, Never>]> = Mutex([])

  /// `size` members, spread over `urls` in turn (one server, or several instances).
  init(size: Int, urls: [String]) throws {
    let targets = try urls.map(WebSocketURL.init)
    clients = (0..<size).map { index in
      WebSocketClient(
        url: targets[index % targets.count], configuration: ClientConfiguration(pingInterval: nil))
    }
    // One attendee id each (`Array(repeating:)` would give all of them the same one).
    members = Mutex((0..<size).map { _ in Member() })
  }

  func start() {
    let codec = WireCodec()
    for (index, client) in clients.enumerated() {
      client.start()
      let events = client.events
      let task = Task { [self] in
        for await event in events {
          guard case .message(let message) = event else { continue }
          let now = ContinuousClock.now
          guard let decoded = try? codec.decode(message.data) else { continue }
          var join: Join?
          members.withLock { members in
            members[index].bytes += message.data.count
            switch decoded {
            case .handshake(let body):
              members[index].connectionID = body.id
              members[index].reconnects += 1
              join = Join(id: body.id, attendee: members[index].attendee)
            case .room(let page):
              members[index].parts = page.parts
              members[index].pagesSeen += 1
              members[index].snapshotSeq = max(members[index].snapshotSeq, page.seq)
              members[index].questionIDs += page.questions.map(\.id)
            case .roomDelta(let delta):
              members[index].deltas.append((delta.to, now))
              members[index].questionIDs += delta.questions.map(\.id)
            case .questionResponse(let response): members[index].ownQuestion = response.id
            default: break
            }
          }
          if case .voteResponse(let response) = decoded {
            votes.withLock {
              $0[response.token]?.seq = response.seq
              $0[response.token]?.success = response.success
            }
          }
          if let join { try? await client.send(binary: codec.encode(.join(join))) }
        }
      }
      readers.withLock { $0.append(task) }
    }
  }

  convenience init(size: Int, url: String) throws { try self.init(size: size, urls: [url]) }

  var snapshot: [Member] { members.withLock { $0 } }
  var castVotes: [CastVote] { votes.withLock { Array($0.values) } }

  func resetCounters() {
    members.withLock { members in
      for index in members.indices {
        members[index].bytes = 0
        members[index].deltas = []
      }
    }
  }

  /// Polls until `done` holds for every member (or `seconds` pass); false on timeout.
  func wait(seconds: Double, until done: (Member) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if snapshot.allSatisfy(done) { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return false
  }

  /// Member `index` asks one question.
  func ask(_ index: Int) async {
    guard let id = snapshot[index].connectionID else { return }
    let bytes = WireCodec().encode(
      .newQuestion(NewQuestion(id: id, content: "Room question \(index)", token: UUID())))
    try? await clients[index].send(binary: bytes)
  }

  /// Member `index` votes for `question`, recording when.
  func vote(_ index: Int, for question: UUID) async {
    guard let id = snapshot[index].connectionID else { return }
    let token = UUID()
    votes.withLock { $0[token] = CastVote(sentAt: ContinuousClock.now) }
    let bytes = WireCodec().encode(
      .vote(Vote(id: id, question: question, up: true, token: token)))
    try? await clients[index].send(binary: bytes)
  }

  func stop() async {
    await withTaskGroup(of: Void.self) { group in
      for client in clients { group.addTask { await client.close() } }
    }
    for task in readers.withLock({ $0 }) { await task.value }
  }
}
