import Foundation
import QnA
import TestSupport
import Testing

/// The room's conversations of Tests/Fixtures/room, which the pages' script runs too
/// (Tests/Web/room-state.test.mjs): each message decoded as the engine decodes it and given to
/// the reducer, and the room after it compared with the one the fixture expects, so that the
/// terminal and the pages cannot drift apart.
@Suite("The room's shared conversations, in Swift as in the pages' script")
struct RoomFixtureTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../Fixtures/room").standardized

  static let names: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    .filter { $0.hasSuffix(".json") }.sorted()

  @Test func thereAreConversations() {
    #expect(Self.names.count >= 4, "\(Self.folder.path)")
  }

  @Test(arguments: names) func theRoomIsAsExpectedAfterEachMessage(_ name: String) throws {
    let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    let fixture = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let steps = try #require(fixture["steps"] as? [[String: Any]])
    // An attendee of a server with every extension the room's messages use.
    var driver = StateDriver(configuration: QnAConfiguration(expectsRoom: true), now: .seconds(100))
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(
      extensions: StateDriver.roomExtensions + [
        ProtocolExtension.counts, ProtocolExtension.lifecycle, ProtocolExtension.announcements,
        ProtocolExtension.queue, ProtocolExtension.labels, ProtocolExtension.polls,
      ])
    // Extension sessionState: the reducer says a session was deleted; it keeps no flag.
    var deleted = false
    for (index, step) in steps.enumerated() {
      let message = try #require(step["receive"] as? [String: Any])
      let place = "\(name), step \(index + 1) (\(message["type"] ?? "?"))"
      let bytes = try JSONSerialization.data(withJSONObject: message)
      let effects = driver.apply(.received(try WireCodec().decode(bytes)))
      let saysDeleted = effects.contains {
        if case .report(.session(_, deleted: true)) = $0 { true } else { false }
      }
      deleted = deleted || saysDeleted
      // A gap asks for the changes missing: a join from the last one applied. (A handshake
      // joins, as it always does.)
      let joinedFrom = effects.compactMap { effect -> Int? in
        if case .join(let join) = effect { join.since } else { nil }
      }
      if step["result"] as? String == "gap" {
        #expect(joinedFrom == [driver.state.room.seq].compactMap { $0 }, "\(place)")
      } else if message["type"] as? String != "handshake" {
        #expect(joinedFrom.isEmpty, "\(place)")
      }
      // Both sides as JSON with sorted keys, compared as text.
      let expected = try Self.json(step["room"] ?? NSNull())
      let actual = try Self.json(Self.view(driver.state, deleted: deleted))
      #expect(actual == expected, "\(place): expected \(expected), got \(actual)")
    }
  }

  static func json(_ value: Any) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// What a fixture compares of the room, as JSON objects: null before the first snapshot.
  static func view(_ state: QnAState, deleted: Bool = false) -> Any {
    let room = state.room
    guard let seq = room.seq else { return NSNull() }
    let questions = room.questions.values.sorted { $0.id.uuidString < $1.id.uuidString }.map {
      question -> [String: Any] in
      let entry = state.roomEntry(question.id)
      var shown: [String: Any] = [
        "id": question.id.uuidString, "content": question.content, "votes": question.votes,
        "state": question.lifecycle.rawValue,
      ]
      if let label = question.label, !label.isEmpty { shown["label"] = label }
      if entry?.mine == true { shown["mine"] = true }
      return shown
    }
    let voted = room.questions.keys.filter { state.roomEntry($0)?.voted == true }
      .map(\.uuidString).sorted()
    let announcement: Any =
      room.announcement?.text.flatMap { $0.isEmpty ? nil : ["text": $0] } ?? NSNull()
    var view: [String: Any] = [
      "seq": seq, "highlighted": room.highlighted?.uuidString ?? NSNull(),
      "announcement": announcement, "labels": room.labels,
      "nextUp": ["ids": room.nextUp.ids.map(\.uuidString), "shown": room.nextUp.shown],
      "voted": voted, "questions": questions,
    ]
    // Extension polls: only when there are polls.
    if !room.polls.byID.isEmpty { view["polls"] = room.polls.ordered.map { pollView($0, room) } }
    // Extension sessions: only in a session's room.
    if let session = state.session {
      view["session"] = [
        "code": session.code, "title": session.title, "open": session.open, "deleted": deleted,
      ]
    }
    return view
  }

  /// What a fixture compares of a poll.
  static func pollView(_ poll: RoomPoll, _ room: Room) -> [String: Any] {
    var shown: [String: Any] = [
      "id": poll.id.uuidString, "n": poll.n, "kind": poll.kind, "prompt": poll.prompt,
      "state": poll.state, "shown": poll.shown,
    ]
    if let options = poll.options { shown["options"] = options }
    if let results = poll.results {
      var counted: [String: Any] = ["answers": results.answers]
      if let counts = results.counts { counted["counts"] = counts }
      for (name, entries) in [
        ("words", results.words), ("texts", results.texts), ("review", results.review),
      ] {
        if let entries {
          counted[name] = entries.map { ["text": $0.text, "count": $0.count] as [String: Any] }
        }
      }
      if let held = results.held { counted["held"] = held }
      shown["results"] = counted
    }
    if let answer = room.polls.answer(to: poll.id) {
      var value: [String: Any] = [:]
      if let choices = answer.choices { value["choices"] = choices }
      if let rating = answer.rating { value["rating"] = rating }
      if let words = answer.words { value["words"] = words }
      if let text = answer.text { value["text"] = text }
      shown["answer"] = value
    }
    return shown
  }
}
