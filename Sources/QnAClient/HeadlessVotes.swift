import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// A line of stdin in headless mode: a question, or a vote command.
public enum StdinLine: Equatable, Sendable {
  case question(String)
  case vote(UUID, up: Bool)
  /// `/poll ID CHOICE` (extension `polls`).
  case poll(PollChoice)
  case invalid(String)

  /// `/vote ID` and `/unvote ID` vote; `//text` asks a question that starts with a slash;
  /// any other line is a question, as it always was.
  public init(_ line: String) {
    if line.hasPrefix("//") {
      self = .question(String(line.dropFirst()))
      return
    }
    if line == "/poll" || line.hasPrefix("/poll ") {
      let argument = line.dropFirst("/poll".count).trimmingSpaces()
      let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2, let id = UUID(uuidString: parts[0]) else {
        self = .invalid("/poll needs a poll id (the `id` of a poll line) and a choice")
        return
      }
      self = .poll(PollChoice(poll: id, text: parts[1]))
      return
    }
    for (command, up) in [("/vote", true), ("/unvote", false)] {
      guard line == command || line.hasPrefix(command + " ") else { continue }
      let argument = line.dropFirst(command.count).trimmingSpaces()
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
public struct VoteQueue: Sendable {
  public var waiting: [(question: UUID, up: Bool)]
  /// Votes handed to the engine, in order.
  public private(set) var cast: [(question: UUID, up: Bool)] = []
  /// Votes cast that no update has shown yet. Updates the engine made before it took a vote
  /// may still be on their way, and in those the vote is neither pending nor counted: read
  /// as settled, it looked refused (a busy room's deltas made that happen).
  var unseen: [UUID: Bool] = [:]

  public init(waiting: [(question: UUID, up: Bool)]) {
    self.waiting = waiting
  }

  /// The waiting votes, to hand to the engine now that `state` has the room (none before).
  package mutating func take(once state: QnAState) -> [(question: UUID, up: Bool)] {
    guard state.room.seq != nil else { return [] }
    let taken = waiting
    waiting = []
    for vote in taken {
      cast.append(vote)
      unseen[vote.question] = vote.up
    }
    return taken
  }

  /// Casts the waiting votes once `state` has the room; returns whether it cast any.
  @discardableResult
  public mutating func cast(on engine: QnAEngine, once state: QnAState) async -> Bool {
    let taken = take(once: state)
    for vote in taken { await engine.vote(vote.question, up: vote.up) }
    return !taken.isEmpty
  }

  /// Takes note of the votes `state` shows: pending, counted as asked, or (when the question
  /// is not in the room) never to be.
  public mutating func observe(_ state: QnAState) {
    unseen = unseen.filter { question, up in
      !state.isVotePending(question) && state.roomEntry(question).map { $0.voted != up } ?? false
    }
  }

  /// Whether every vote is cast and answered, and `state` can say what became of it: not
  /// between a compact snapshot and its `roomOwn` (after a reconnect), when a counted vote
  /// reads as not voted (a chaos run once failed a counted vote so).
  public func settled(in state: QnAState) -> Bool {
    waiting.isEmpty && unseen.isEmpty && !state.room.awaitsOwnMarks
      && !cast.contains { state.isVotePending($0.question) }
  }

  /// Why the votes cannot all be cast as asked, once that is known: the server has no room,
  /// or (when the run ends on its own, `finishing`) a vote was refused or named no question
  /// of the room.
  public func failure(after update: EngineUpdate, _ finishing: Bool) -> String? {
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
