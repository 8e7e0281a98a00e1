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
    /// When this member's join went out, and when its snapshot's last page came.
    var joinSentAt: ContinuousClock.Instant?
    var snapshotDoneAt: ContinuousClock.Instant?
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

  /// Whether members ask for the compact room (extension `counts`) in their joins.
  let counts: Bool
  /// What the members say they have seen (a room of another epoch: each needs a snapshot).
  let since: Int?
  let epoch: UUID?

  /// `size` members, spread over `urls` in turn (one server, or several instances).
  /// `attendees`: who they are (new ones without).
  init(
    size: Int, urls: [String], counts: Bool = false, attendees: [UUID]? = nil, since: Int? = nil,
    epoch: UUID? = nil
  ) throws {
    self.counts = counts
    self.since = since
    self.epoch = epoch
    let targets = try urls.map(WebSocketURL.init)
    clients = (0..<size).map { index in
      WebSocketClient(
        url: targets[index % targets.count], configuration: ClientConfiguration(pingInterval: nil))
    }
    // One attendee id each (`Array(repeating:)` would give all of them the same one).
    members = Mutex(
      (0..<size).map { index in
        var member = Member()
        if let attendees { member.attendee = attendees[index] }
        return member
      })
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
          // Snapshot pages and count-only deltas are read for the few numbers the fleet
          // keeps, not decoded whole: the fleet shares the machine with the server, and
          // what is measured is the server's delivery.
          if let quick = QuickRead(message.data) {
            members.withLock { members in
              members[index].bytes += message.data.count
              members[index].record(quick, at: now)
            }
            continue
          }
          if let answer = QuickRead.voteAnswer(message.data) {
            members.withLock { $0[index].bytes += message.data.count }
            votes.withLock {
              $0.answer(answer.token, success: answer.success, seq: answer.seq)
            }
            continue
          }
          guard let decoded = try? codec.decode(message.data) else { continue }
          var join: Join?
          members.withLock { members in
            members[index].bytes += message.data.count
            switch decoded {
            case .handshake(let body):
              members[index].connectionID = body.id
              members[index].reconnects += 1
              join = Join(
                id: body.id, attendee: members[index].attendee, since: since, epoch: epoch,
                counts: counts ? true : nil)
            case .room(let page):
              members[index].parts = page.parts
              members[index].pagesSeen += 1
              members[index].snapshotSeq = max(members[index].snapshotSeq, page.seq)
              if members[index].joined { members[index].snapshotDoneAt = now }
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
              $0.answer(response.token, success: response.success, seq: response.seq)
            }
          }
          if case .pollAnswerResponse(let response) = decoded {
            votes.withLock {
              $0.answer(response.token, success: response.success, seq: response.seq)
            }
          }
          if let join {
            try? await client.send(binary: codec.encode(.join(join)))
            let sent = ContinuousClock.now
            members.withLock { $0[index].joinSentAt = sent }
          }
        }
      }
      readers.withLock { $0.append(task) }
    }
  }

  convenience init(size: Int, url: String, counts: Bool = false) throws {
    try self.init(size: size, urls: [url], counts: counts)
  }

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

  /// Member `index` answers `poll`, recording when (beside the votes: one answer each).
  func answer(_ index: Int, poll: UUID, _ value: PollValue) async {
    guard let id = snapshot[index].connectionID else { return }
    let token = UUID()
    votes.withLock { $0[token] = CastVote(sentAt: ContinuousClock.now) }
    let bytes = WireCodec().encode(
      .pollAnswer(PollAnswer(id: id, poll: poll, token: token, value: value)))
    try? await clients[index].send(binary: bytes)
  }

  func stop() async {
    await withTaskGroup(of: Void.self) { group in
      for client in clients { group.addTask { await client.close() } }
    }
    for task in readers.withLock({ $0 }) { await task.value }
  }
}

extension Dictionary where Key == UUID, Value == RoomFleet.CastVote {
  /// The answer to the vote or poll answer sent with `token`: whether it counted, and the
  /// sequence number that counts it.
  mutating func answer(_ token: UUID, success: Bool, seq: Int?) {
    self[token]?.seq = seq
    self[token]?.success = success
  }
}

extension RoomFleet.Member {
  /// A snapshot page's or a count-only delta's numbers, read without decoding it.
  mutating func record(_ quick: QuickRead, at now: ContinuousClock.Instant) {
    switch quick {
    case .page(let seq, _, let parts):
      self.parts = parts
      pagesSeen += 1
      snapshotSeq = max(snapshotSeq, seq)
      if joined { snapshotDoneAt = now }
    case .counts(let to): deltas.append((to, now))
    }
  }
}

/// The numbers the fleet keeps from a snapshot page, or from a delta that carries no whole
/// question, read without decoding the message (a key in quotes cannot occur inside a JSON
/// string, where quotes are escaped).
enum QuickRead {
  case page(seq: Int, part: Int, parts: Int)
  case counts(to: Int)

  init?(_ bytes: [UInt8]) {
    if Self.contains(bytes, #""type":"room""#) {
      guard let seq = Self.number(bytes, #""seq":"#), let part = Self.number(bytes, #""part":"#),
        let parts = Self.number(bytes, #""parts":"#)
      else { return nil }
      self = .page(seq: seq, part: part, parts: parts)
    } else if Self.contains(bytes, #""type":"roomDelta""#), !Self.contains(bytes, #""content":"#),
      let to = Self.number(bytes, #""to":"#)
    {
      self = .counts(to: to)
    } else {
      return nil
    }
  }

  /// A vote's answer, read without decoding it: its token, whether it counted, and the
  /// sequence number that counts it (a fleet of 10,000 spent half its core decoding these).
  static func voteAnswer(_ bytes: [UInt8]) -> (token: UUID, success: Bool, seq: Int?)? {
    guard contains(bytes, #""type":"voteResponse""#), let start = find(bytes, #""token":""#),
      start + 36 <= bytes.count,
      let token = UUID(uuidString: String(decoding: bytes[start..<start + 36], as: UTF8.self))
    else { return nil }
    return (token, contains(bytes, #""success":true"#), number(bytes, #""seq":"#))
  }

  /// The sequence number a delta ends at, whatever it carries.
  static func deltaEnd(_ bytes: [UInt8]) -> Int? {
    guard contains(bytes, #""type":"roomDelta""#) else { return nil }
    return number(bytes, #""to":"#)
  }

  private static func find(_ bytes: [UInt8], _ key: String) -> Int? {
    let needle = Array(key.utf8)
    guard bytes.count >= needle.count else { return nil }
    var index = 0
    while index <= bytes.count - needle.count {
      if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle {
        return index + needle.count
      }
      index += 1
    }
    return nil
  }

  private static func contains(_ bytes: [UInt8], _ key: String) -> Bool { find(bytes, key) != nil }

  private static func number(_ bytes: [UInt8], _ key: String) -> Int? {
    guard var index = find(bytes, key) else { return nil }
    var value = 0
    var digits = 0
    while index < bytes.count, (48...57).contains(bytes[index]) {
      value = value * 10 + Int(bytes[index] - 48)
      index += 1
      digits += 1
    }
    return digits > 0 ? value : nil
  }
}
