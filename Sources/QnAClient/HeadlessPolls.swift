import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A poll's answer as a script writes it (`--poll ID=CHOICE`, `/poll ID CHOICE`): option
/// numbers from 1, commas between them (a ranking's in order), a rating's number, or a word
/// cloud's entries with commas between them; read against the poll once the room has it.
public struct PollChoice: Sendable, Hashable {
  public var poll: UUID
  public var text: String

  public init(poll: UUID, text: String) {
    self.poll = poll
    self.text = text
  }

  /// `ID=CHOICE`, or `nil` when it is not one.
  public init?(argument: String) {
    guard let equals = argument.firstIndex(of: "="),
      let poll = UUID(uuidString: String(argument[..<equals]).trimmingSpaces())
    else { return nil }
    self.init(poll: poll, text: String(argument[argument.index(after: equals)...]))
  }

  /// The answer `text` makes for `poll`, or why it makes none.
  public func value(for poll: RoomPoll) -> Result<PollValue, PollRules.Refused> {
    let parts = text.split(separator: ",").map { String($0).trimmingSpaces() }.filter {
      !$0.isEmpty
    }
    switch poll.pollKind {
    case .single?, .multiple?, .ranking?:
      let numbers = parts.map { Int($0) }
      guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else {
        return .failure(PollRules.Refused("Name the options by number, from 1: 2 or 1,3."))
      }
      return .success(PollValue(choices: numbers.map { $0! - 1 }))
    case .rating?:
      guard parts.count == 1, let rating = Int(parts[0]) else {
        return .failure(PollRules.Refused("A rating is one number."))
      }
      return .success(PollValue(rating: rating))
    case .words?: return .success(PollValue(words: parts))
    // An open text is the whole line, commas and all.
    case .text?: return .success(PollValue(text: text))
    case nil: return .failure(PollRules.Refused("This qna does not know that kind of poll."))
    }
  }
}

/// Poll answers asked for on the command line or stdin: each given once its poll is in the
/// room, then followed by its token until the server (or the client's own rules) has said
/// what became of it.
public struct PollAnswerQueue: Sendable {
  public var waiting: [PollChoice]
  /// Answers handed to the engine, in order, with their tokens.
  public private(set) var given: [(choice: PollChoice, token: UUID)] = []
  /// Answers refused before they could go (a choice the poll's kind cannot read).
  public private(set) var refused: [String] = []

  public init(waiting: [PollChoice]) { self.waiting = waiting }

  /// Gives the waiting answers whose polls `state` has; returns whether it gave any.
  @discardableResult
  public mutating func give(on engine: QnAEngine, once state: QnAState) async -> Bool {
    guard state.room.seq != nil else { return false }
    var left: [PollChoice] = []
    var gave = false
    for choice in waiting {
      guard let poll = state.room.polls.byID[choice.poll] else {
        left.append(choice)
        continue
      }
      switch choice.value(for: poll) {
      case .failure(let refusal): refused.append("\(choice.poll): \(refusal.message)")
      case .success(let value):
        let token = UUID()
        given.append((choice, token))
        await engine.answerPoll(choice.poll, value, token: token)
        gave = true
      }
    }
    waiting = left
    return gave
  }

  /// Whether every answer given has its verdict (and, when the run ends on its own,
  /// `finishing`, the room has come to say which polls it lacks).
  public func settled(in state: QnAState, finishing: Bool) -> Bool {
    guard waiting.isEmpty || (finishing && state.room.seq != nil) else { return false }
    return given.allSatisfy { state.room.polls.verdicts[$0.token] != nil }
  }

  /// Why the answers are not all counted as asked, once that is known.
  public func failure(in state: QnAState, finishing: Bool) -> String? {
    if let first = refused.first { return "poll answer failed: \(first)" }
    for (choice, token) in given {
      if case .some(.some(let refusal)) = state.room.polls.verdicts[token] {
        return "poll answer failed: \(choice.poll): \(refusal)"
      }
    }
    guard finishing, settled(in: state, finishing: true) else { return nil }
    if let missing = waiting.first {
      return "poll answer failed: \(missing.poll) is not a poll of the room"
    }
    return nil
  }
}
