import Foundation
import QnA

/// Deterministic ids for the benchmark's questions.
func benchUUID(_ number: Int, group: UInt64) -> UUID {
  var value = (group << 32 | UInt64(number)).bigEndian
  var high = UInt64(0x0000_0000_0000_4000).bigEndian
  var bytes = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  withUnsafeMutableBytes(of: &bytes) { raw in
    withUnsafeBytes(of: &high) { raw.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8) }
    withUnsafeBytes(of: &value) {
      (raw.baseAddress! + 8).copyMemory(from: $0.baseAddress!, byteCount: 8)
    }
  }
  return UUID(uuid: bytes)
}

let connectionID = benchUUID(0, group: 0xC0)
func token(_ index: Int) -> UUID { benchUUID(index, group: 0x70) }
func serverID(_ index: Int) -> UUID { benchUUID(index, group: 0x5E) }
func content(_ index: Int) -> String { "Question number \(index): what about Swift on Linux?" }

func response(_ index: Int) -> WireMessage {
  .questionResponse(
    QuestionResponse(
      success: true, message: "Question created. We will answer it as soon as possible :]",
      id: serverID(index), answered: false, content: content(index),
      createdAt: Date(timeIntervalSinceReferenceDate: 785_000_000 + Double(index))))
}

func answer(_ index: Int) -> WireMessage {
  .questionAnswer(QuestionAnswer(questionId: serverID(index)))
}

/// Connected, with `asked` questions typed and on the wire.
func stateWithQuestionsSent(_ asked: Int) -> QnAState {
  var state = QnAState()
  _ = state.apply(.connected)
  _ = state.apply(.received(.handshake(Handshake(id: connectionID))))
  for index in 0..<asked { _ = state.apply(.ask(content(index), token: token(index))) }
  return state
}

/// As above, and every question confirmed by the server (unanswered).
func stateWithQuestionsConfirmed(_ count: Int) -> QnAState {
  var state = stateWithQuestionsSent(count)
  for index in 0..<count { _ = state.apply(.received(response(index))) }
  return state
}
