import Foundation
import PropertyBased
import QnA
import TestSupport
import Testing

/// A room server reduced to its rules (one vote per attendee, no vote for one's own or an
/// answered question, a log of changes with sequence numbers, catch-up or snapshot on join),
/// talking to one client over a link that duplicates, reorders and drops on reconnects.
private struct RoomServerModel {
  struct Entry {
    var question: RoomQuestion
    var voters: Set<UUID> = []
    var askedByClient = false
  }

  let epoch = uuid(0xE0, group: 0xE0)
  var entries: [UUID: Entry] = [:]
  var removed: Set<UUID> = []
  /// The question each sequence number changed (`nil`: the highlight).
  var log: [UUID?] = []
  var highlighted: UUID?
  var seq: Int { log.count }
  /// The sequence number broadcast so far.
  var broadcast = 0

  mutating func add(_ n: Int, byClient: Bool) {
    let id = uuid(n, group: 0x5E)
    guard entries[id] == nil, !removed.contains(id) else { return }
    entries[id] = Entry(
      question: RoomQuestion(
        id: id, content: "Question \(n)", votes: 0, answered: false,
        createdAt: Date(timeIntervalSinceReferenceDate: Double(n))),
      askedByClient: byClient)
    log.append(id)
  }

  mutating func otherVote(_ id: UUID, voter: UUID) {
    guard var entry = entries[id], !entry.question.answered, entry.voters.insert(voter).inserted
    else { return }
    entry.question.votes += 1
    entries[id] = entry
    log.append(id)
  }

  mutating func answer(_ id: UUID) {
    guard entries[id]?.question.answered == false else { return }
    entries[id]?.question.answered = true
    log.append(id)
  }

  mutating func remove(_ id: UUID) {
    guard entries.removeValue(forKey: id) != nil else { return }
    removed.insert(id)
    log.append(id)
    if highlighted == id {
      highlighted = nil
      log.append(nil)
    }
  }

  mutating func highlight(_ id: UUID?) {
    guard highlighted != id, id.map({ entries[$0] != nil }) ?? true else { return }
    highlighted = id
    log.append(nil)
  }

  /// What changed after `after`: every question's current state, as the real store does.
  func delta(after: Int) -> RoomDelta {
    let changed = Set(log[after...].compactMap { $0 })
    return RoomDelta(
      from: after + 1, to: seq,
      questions: changed.compactMap { entries[$0]?.question }.sorted {
        $0.id.uuidString < $1.id.uuidString
      },
      removed: changed.filter { entries[$0] == nil }.sorted { $0.uuidString < $1.uuidString },
      highlight: log[after...].contains(nil) ? HighlightChange(id: highlighted) : nil)
  }

  /// The pending changes as one broadcast, if any.
  mutating func flush() -> WireMessage? {
    guard seq > broadcast else { return nil }
    defer { broadcast = seq }
    return .roomDelta(delta(after: broadcast))
  }

  func snapshot(for attendee: UUID, parts: Int) -> [WireMessage] {
    let all = entries.values.sorted { $0.question.createdAt < $1.question.createdAt }.map {
      var question = $0.question
      question.mine = $0.askedByClient
      question.voted = $0.voters.contains(attendee)
      return question
    }
    let size = max(1, (all.count + parts - 1) / parts)
    let pages = max(1, min(parts, (all.count + size - 1) / size))
    return (1...pages).map { part in
      .room(
        RoomSnapshot(
          seq: seq, part: part, parts: pages,
          questions: Array(all.dropFirst((part - 1) * size).prefix(size)),
          highlighted: highlighted, epoch: epoch))
    }
  }

  /// The server's answer to what the client sent.
  mutating func handle(_ message: WireMessage, attendee: UUID, parts: Int) -> [WireMessage] {
    switch message {
    case .join(let join):
      if join.epoch == epoch, let since = join.since, since <= seq {
        return since < seq ? [.roomDelta(delta(after: since))] : []
      }
      return snapshot(for: attendee, parts: parts)
    case .vote(let vote):
      guard var entry = entries[vote.question] else {
        return [
          .voteResponse(
            VoteResponse(
              question: vote.question, token: vote.token, success: false, voted: false, votes: 0,
              message: "There is no such question."))
        ]
      }
      let had = entry.voters.contains(attendee)
      var refusal: String?
      if vote.up, !had {
        if entry.askedByClient {
          refusal = "yours"
        } else if entry.question.answered {
          refusal = "answered"
        } else {
          entry.voters.insert(attendee)
          entry.question.votes += 1
        }
      } else if !vote.up, had {
        entry.voters.remove(attendee)
        entry.question.votes -= 1
      }
      let changed = entry.voters.contains(attendee) != had
      entries[vote.question] = entry
      if changed { log.append(vote.question) }
      return [
        .voteResponse(
          VoteResponse(
            question: vote.question, token: vote.token, success: refusal == nil,
            voted: entry.voters.contains(attendee), votes: entry.question.votes, seq: seq,
            message: refusal))
      ]
    default:
      return []
    }
  }
}

@Suite("The room converges, whatever the link does to deltas and votes")
struct RoomConvergenceTests {
  @Test func anyInterleavingDuplicationAndReorderingAcrossReconnectsConverges() async {
    await propertyCheck(count: 1000, input: Gen.uint64()) { seed in Self.converges(seed: seed) }
  }

  /// Seeds that once found a bug, kept.
  @Test(
    arguments: [
      16_932_598_751_933_597_800, 5_903_746_450_895_055_006, 5_513_716_617_872_639_626,
      16_794_523_788_221_221_162,
    ] as [UInt64])
  func seedsThatFoundBugsStillConverge(seed: UInt64) { Self.converges(seed: seed) }

  static func converges(seed: UInt64) {
    var random = Xoshiro(seed: (seed, 0x600D, ~seed, 3))
    var server = RoomServerModel()
    var client = StateDriver()
    client.apply(.identity(attendee: StateDriver.attendee, name: nil))
    var toClient: [WireMessage] = []
    var toServer: [WireMessage] = []
    var connection = 1
    var voteToken = 0
    var clock = Duration.zero

    func wire(_ effects: [QnAEffect]) -> [WireMessage] {
      effects.compactMap {
        switch $0 {
        case .join(let join): .join(join)
        case .vote(let vote): .vote(vote)
        default: nil
        }
      }
    }
    func handshake() {
      let id = uuid(connection, group: 0xC0)
      client.apply(.connecting(attempt: connection))
      client.apply(.connected)
      toServer += wire(
        client.apply(
          .received(.handshake(Handshake(id: id, extensions: StateDriver.roomExtensions)))))
    }
    for n in 0..<Int.random(in: 0...6, using: &random) {
      server.add(n + 1, byClient: n % 4 == 3)
    }
    server.broadcast = server.seq
    handshake()

    for _ in 0..<Int.random(in: 10...80, using: &random) {
      let ids = server.entries.keys.sorted { $0.uuidString < $1.uuidString }
      switch Int.random(in: 0..<12, using: &random) {
      case 0: server.add(Int.random(in: 1...30, using: &random), byClient: false)
      case 1:
        if let id = ids.randomElement(using: &random) {
          server.otherVote(id, voter: uuid(Int.random(in: 1...5, using: &random), group: 0xB0))
        }
      case 2: if let id = ids.randomElement(using: &random) { server.answer(id) }
      case 3:
        if Int.random(in: 0..<3, using: &random) == 0, let id = ids.randomElement(using: &random) {
          server.remove(id)
        }
      case 4:
        server.highlight(Bool.random(using: &random) ? ids.randomElement(using: &random) : nil)
      case 5: if let delta = server.flush() { toClient.append(delta) }
      case 6:
        // The attendee votes or unvotes (online or not).
        let known = client.state.room.questions.keys.sorted { $0.uuidString < $1.uuidString }
        if let id = known.randomElement(using: &random) {
          voteToken += 1
          toServer += wire(
            client.apply(
              .vote(
                question: id, up: Bool.random(using: &random), token: uuid(voteToken, group: 0x70)
              )))
        }
      case 7, 8:
        // The server reads what the client sent, in order.
        if !toServer.isEmpty {
          let message = toServer.removeFirst()
          toClient += server.handle(
            message, attendee: StateDriver.attendee, parts: Int.random(in: 1...3, using: &random))
        }
      case 9, 10:
        // Delivery: not always the oldest first, sometimes twice.
        if !toClient.isEmpty {
          let index = Int.random(in: 0..<min(3, toClient.count), using: &random)
          let message = toClient[index]
          if Int.random(in: 0..<4, using: &random) != 0 { toClient.remove(at: index) }
          toServer += wire(client.apply(.received(message)))
        }
      default:
        if Int.random(in: 0..<3, using: &random) == 0 {
          // The link drops: what was in flight either way is lost.
          toClient.removeAll()
          toServer.removeAll()
          client.apply(
            .disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
          connection += 1
          if let delta = server.flush() { _ = delta }  // broadcast to no one of ours
          handshake()
        }
      }
      clock += .milliseconds(300)
      toServer += wire(client.apply(.clock(clock)))
    }

    // The link heals: everything flows in order until nothing is left.
    for _ in 0..<200 {
      if let delta = server.flush() { toClient.append(delta) }
      if toClient.isEmpty && toServer.isEmpty { break }
      while !toServer.isEmpty {
        toClient += server.handle(
          toServer.removeFirst(), attendee: StateDriver.attendee, parts: 2)
      }
      while !toClient.isEmpty {
        toServer += wire(client.apply(.received(toClient.removeFirst())))
      }
      clock += .seconds(6)
      toServer += wire(client.apply(.clock(clock)))
    }

    let room = client.state.room
    #expect(room.seq == server.seq)
    #expect(Set(room.questions.keys) == Set(server.entries.keys))
    for (id, entry) in server.entries {
      let seen = client.state.entry(for: room.questions[id] ?? entry.question)
      #expect(seen.votes == entry.question.votes, "votes of \(id)")
      #expect(seen.question.answered == entry.question.answered)
      #expect(seen.voted == entry.voters.contains(StateDriver.attendee), "my vote on \(id)")
      #expect(!seen.votePending)
    }
    #expect(room.highlighted == server.highlighted)
  }
}
