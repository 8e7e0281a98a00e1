import Foundation
import QnA

/// The least any client must do per message: one hashed insert or update, nothing else.
struct DictionaryBaseline {
  var answered: [UUID: (content: String, answered: Bool)] = [:]

  mutating func apply(_ message: WireMessage) -> Int {
    switch message {
    case .questionResponse(let response):
      guard let id = response.id else { return 0 }
      answered[id] = (response.content ?? "", response.answered ?? false)
      return 1
    case .questionAnswer(let answer):
      answered[answer.questionId]?.answered = true
      return 1
    default: return 0
    }
  }
}

/// The obvious model: an array of questions searched by id, as a first version might do.
struct LinearScanBaseline {
  var questions: [(id: UUID, content: String, answered: Bool)] = []

  init(confirmed count: Int) {
    questions = (0..<count).map { (serverID($0), content($0), false) }
  }

  mutating func apply(_ message: WireMessage) -> Int {
    guard case .questionAnswer(let answer) = message,
      let index = questions.firstIndex(where: { $0.id == answer.questionId })
    else { return 0 }
    questions[index].answered = true
    return 1
  }
}
