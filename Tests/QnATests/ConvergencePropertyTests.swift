import Foundation
import PropertyBased
import QnA
import TestSupport
import Testing

/// A set of questions asked on one connection, and every server message about them.
struct Scenario {
  var contents: [String]
  /// Indices of the questions the server refuses.
  var refused: Set<Int>
  /// Indices of the confirmed questions the presenter answers.
  var answered: Set<Int>

  init(seed: UInt64) {
    var random = Xoshiro(seed: (seed, seed ^ 0x5555, ~seed, 42))
    // A small alphabet of contents, so that equal contents (the hard case) are common.
    let words = ["same", "other", "third", "Grüße 👋"]
    contents = (0..<Int.random(in: 1...7, using: &random)).map { _ in
      words.randomElement(using: &random)!
    }
    let refused = Set(
      contents.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
    self.refused = refused
    answered = Set(
      contents.indices.filter { !refused.contains($0) && Bool.random(using: &random) })
  }

  func serverID(_ index: Int) -> UUID { uuid(index, group: 0x5E) }

  /// Every message the server sends about these questions, each once.
  func messages(echoingTokens: Bool) -> [WireMessage] {
    contents.indices.flatMap { index -> [WireMessage] in
      let success = !refused.contains(index)
      let response = QuestionResponse(
        success: success, message: success ? "Question created." : "Something went wrong.",
        id: serverID(index), answered: false, content: contents[index],
        createdAt: Date(timeIntervalSinceReferenceDate: Double(1000 + index)),
        token: echoingTokens ? uuid(index) : nil)
      var messages = [WireMessage.questionResponse(response)]
      if answered.contains(index) {
        messages.append(.questionAnswer(QuestionAnswer(questionId: serverID(index))))
      }
      return messages
    }
  }

  /// The messages shuffled, some repeated, and sometimes a reconnect in the middle.
  func delivery(echoingTokens: Bool, seed: UInt64) -> [QnAEvent] {
    var random = Xoshiro(seed: (seed, 7, seed &* 31, 1))
    let messages = messages(echoingTokens: echoingTokens)
    var events = (messages + messages.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
      .shuffled(using: &random).map(QnAEvent.received)
    if Bool.random(using: &random) {
      let cut = Int.random(in: 0...events.count, using: &random)
      events.insert(
        contentsOf: [
          .disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)),
          .connecting(attempt: 2), .connected,
          .received(.handshake(Handshake(id: secondConnection))),
        ], at: cut)
    }
    return events
  }

  /// The state after asking every question and receiving `events`.
  func finalState(after events: [QnAEvent]) -> QnAState {
    var harness = Harness()
    harness.connect()
    for (index, content) in contents.enumerated() { harness.ask(content, index) }
    for event in events { harness.apply(event) }
    return harness.state
  }
}

/// What the attendee sees of one question, without the client's token.
struct Seen: Hashable, Comparable {
  var content: String
  var status: String
  var serverID: UUID?
  var createdAt: Date?

  init(_ question: Question) {
    content = question.content
    status = "\(question.status)"
    serverID = question.serverID
    createdAt = question.createdAt
  }

  static func < (a: Seen, b: Seen) -> Bool {
    (a.content, a.status, a.serverID?.uuidString ?? "") < (
      b.content, b.status, b.serverID?.uuidString ?? ""
    )
  }
}

@Suite("QnAState converges, whatever the order of the server's messages")
struct ConvergencePropertyTests {
  @Test func withEchoedTokensEveryDeliveryOrderGivesTheSameQuestions() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.uint64()) { seed, order in
      let scenario = Scenario(seed: seed)
      let expected = scenario.finalState(
        after: scenario.messages(echoingTokens: true).map(QnAEvent.received))
      let actual = scenario.finalState(after: scenario.delivery(echoingTokens: true, seed: order))
      // Everything the attendee sees, token included (not how often it was sent).
      let seen = { (state: QnAState) in state.orderedQuestions.map { (Seen($0), $0.id) } }
      #expect(seen(actual).elementsEqual(seen(expected)) { $0 == $1 })
      #expect(actual.counts == expected.counts)
    }
  }

  /// Without tokens, questions of equal content are interchangeable: which of two "same"
  /// questions the server refused cannot be known, and does not matter to the attendee.
  @Test func withoutTokensEveryDeliveryOrderGivesTheSameQuestionsUpToEqualContent() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.uint64()) { seed, order in
      let scenario = Scenario(seed: seed)
      let expected = scenario.finalState(
        after: scenario.messages(echoingTokens: false).map(QnAEvent.received))
      let actual = scenario.finalState(after: scenario.delivery(echoingTokens: false, seed: order))
      let confirmed = { (state: QnAState) in
        state.orderedQuestions.filter { !$0.status.isUnconfirmed }.map(Seen.init)
      }
      let unconfirmed = { (state: QnAState) in
        state.orderedQuestions.filter(\.status.isUnconfirmed).map(Seen.init).sorted()
      }
      #expect(confirmed(actual) == confirmed(expected))
      #expect(unconfirmed(actual) == unconfirmed(expected))
      #expect(actual.counts == expected.counts)
      // This back end cannot say whether a refusal is final, so each refused question waits
      // to be sent again rather than failing.
      #expect(actual.counts.pending == scenario.refused.count, "only the refused wait")
      #expect(actual.counts.answered == scenario.answered.count)
      #expect(actual.counts.failed == 0)
    }
  }
}

@Suite("No event loses a question the user typed")
struct NothingLostPropertyTests {
  static let events: [QnAEvent] = [
    .connecting(attempt: 1), .connected, .received(.handshake(Handshake(id: firstConnection))),
    .received(.handshake(Handshake(id: secondConnection))),
    .disconnected(reason: "drop", retry: nil),
    .disconnected(reason: "drop", retry: .init(after: .seconds(2), attempt: 2)),
    .roundTrip(.milliseconds(5)), .stalled(waited: .seconds(9)), .clock(.seconds(1000)),
    .undecodable(.malformed("x")),
    .received(.questionAnswer(QuestionAnswer(questionId: uuid(1, group: 0x5E)))),
    .received(
      .questionResponse(
        QuestionResponse(success: false, message: "no", id: nil, content: nil))),
    .received(
      .questionResponse(
        QuestionResponse(success: true, message: "ok", id: uuid(2, group: 0x5E), content: "a"))),
    .received(
      .questionResponse(
        QuestionResponse(success: false, message: "no", id: uuid(3, group: 0x5E), content: "b"))),
    .received(.newQuestion(NewQuestion(id: firstConnection, content: "a"))),
    .received(
      .questionResponse(
        QuestionResponse(success: false, message: "later", content: "a", retryAfter: 2))),
    .received(.resumed(Resumed(id: firstConnection, missing: [uuid(2, group: 0x5E)]))),
    .received(
      .handshake(
        Handshake(
          id: firstConnection,
          extensions: [
            ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
          ]
        ))),
  ]

  @Test func anySequenceOfEventsKeepsEveryTypedQuestion() async {
    let step = Gen.int(in: 0..<(Self.events.count + 4))
    await propertyCheck(count: 400, input: step.array(of: 0...60)) { steps in
      var state = QnAState()
      var typed: [UUID: String] = [:]
      for (position, choice) in steps.enumerated() {
        let token = uuid(position + 100)
        switch choice - Self.events.count {
        case 0, 1:
          let text = ["a", "b", " c "][position % 3]
          _ = state.apply(.ask(text, token: token))
          typed[token] = text.trimmingCharacters(in: .whitespaces)
        case 2:
          if let failed = typed.keys.first(where: {
            if case .failed = state.question(token: $0)?.status { true } else { false }
          }) {
            _ = state.apply(.retry(failed))
          }
        case 3:
          if let any = typed.keys.first { _ = state.apply(.sendFailed(any)) }
        default:
          _ = state.apply(Self.events[choice])
        }
        for (token, content) in typed {
          #expect(state.question(token: token)?.content == content)
        }
        #expect(state.orderedQuestions.count == state.counts.asked)
      }
    }
  }
}
