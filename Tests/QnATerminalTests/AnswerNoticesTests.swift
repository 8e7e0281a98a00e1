import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// `--notify` tells of each answered question once, in one notification per batch, and
/// keeps a private answer out of it.
@Suite("Answer notifications")
struct AnswerNoticesTests {
  static func question(_ n: Int, answer: String? = nil, isPrivate: Bool = false) -> Question {
    var question = Question(
      id: uuid(n, group: 0xA5), content: "Question \(n)?", status: .answered, sequence: n)
    question.answer = answer
    question.answerIsPrivate = isPrivate
    return question
  }

  @Test func eachQuestionOnceWhateverTheServerRepeats() {
    var notices = AnswerNotices()
    let first = notices.notice(for: [Self.question(1)])
    #expect(first?.title == "Your question was answered" && first?.body == "Question 1?")
    // Reported again (its answer's text arriving later, a restated reply, a repeating
    // server): not told again.
    #expect(notices.notice(for: [Self.question(1, answer: "Yes")]) == nil)
    #expect(notices.notice(for: Array(repeating: Self.question(1), count: 1000)) == nil)
  }

  @Test func manyAtOnceAreOneNotificationAndPrivateAnswersStayOut() {
    var notices = AnswerNotices()
    let many = notices.notice(for: (2...40).map { Self.question($0) })
    #expect(many?.title == "39 of your questions were answered")
    let open = notices.notice(for: [Self.question(50, answer: "Next week")])
    #expect(open?.body == "Question 50? — Next week")
    let secret = notices.notice(for: [Self.question(51, answer: "Your code", isPrivate: true)])
    #expect(secret?.body == "Question 51?")
  }
}
