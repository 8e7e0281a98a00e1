import Foundation
import QnA
import QnAClient

/// A line of stdin in headless mode: a question, or a vote command.
enum StdinLine: Equatable {
  case question(String)
  case vote(UUID, up: Bool)
  case invalid(String)

  /// `/vote ID` and `/unvote ID` vote; `//text` asks a question that starts with a slash;
  /// any other line is a question, as it always was.
  init(_ line: String) {
    if line.hasPrefix("//") {
      self = .question(String(line.dropFirst()))
      return
    }
    for (command, up) in [("/vote", true), ("/unvote", false)] {
      guard line == command || line.hasPrefix(command + " ") else { continue }
      let argument = line.dropFirst(command.count).trimmingCharacters(in: .whitespaces)
      guard let id = UUID(uuidString: argument) else {
        self = .invalid("\(command) needs a question id (the `id` of a room line)")
        return
      }
      self = .vote(id, up: up)
      return
    }
    self = .question(line)
  }
}

/// Votes asked for on the command line or stdin: cast once the room has arrived (a vote
/// names a question of the room), then followed until the server has answered each.
struct VoteQueue {
  var waiting: [(question: UUID, up: Bool)]
  /// Votes handed to the engine, in order.
  var cast: [(question: UUID, up: Bool)] = []
  /// Votes cast that no update has shown yet. Updates the engine made before it took a vote
  /// may still be on their way, and in those the vote is neither pending nor counted: read
  /// as settled, it looked refused (a busy room's deltas made that happen).
  var unseen: [UUID: Bool] = [:]

  /// Returns whether it cast any.
  @discardableResult
  mutating func cast(on engine: QnAEngine, once state: QnAState) async -> Bool {
    guard state.room.seq != nil, !waiting.isEmpty else { return false }
    for vote in waiting {
      await engine.vote(vote.question, up: vote.up)
      cast.append(vote)
      unseen[vote.question] = vote.up
    }
    waiting = []
    return true
  }

  /// Takes note of the votes `state` shows: pending, counted as asked, or (when the question
  /// is not in the room) never to be.
  mutating func observe(_ state: QnAState) {
    unseen = unseen.filter { question, up in
      !state.isVotePending(question) && state.roomEntry(question).map { $0.voted != up } ?? false
    }
  }

  func settled(in state: QnAState) -> Bool {
    waiting.isEmpty && unseen.isEmpty && !cast.contains { state.isVotePending($0.question) }
  }

  /// Why the votes cannot all be cast as asked, once that is known: the server has no room,
  /// or (when the run ends on its own, `finishing`) a vote was refused or named no question
  /// of the room.
  func failure(after update: EngineUpdate, _ finishing: Bool) -> String? {
    let handshake = update.changes.contains { if case .handshake = $0 { true } else { false } }
    if handshake, !update.state.room.isAvailable, !waiting.isEmpty {
      return "this server shows only your own questions: there is no room to vote in"
    }
    guard finishing, settled(in: update.state) else { return nil }
    // The last intent for each question is what must hold.
    let intended = Dictionary(cast.map { ($0.question, $0.up) }) { _, last in last }
    for (question, up) in intended.sorted(by: { $0.key.uuidString < $1.key.uuidString })
    where update.state.roomEntry(question)?.voted != up {
      return update.state.roomEntry(question) == nil
        ? "vote failed: \(question) is not a question of the room"
        : "vote failed: \(question): the server refused it"
    }
    return nil
  }
}
