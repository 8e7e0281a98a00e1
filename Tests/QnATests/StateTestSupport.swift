import Foundation

@testable import QnA

/// Deterministic UUIDs: `uuid(5)` is 00000000-0000-4000-8000-000000000005.
func uuid(_ number: Int, group: Int = 0) -> UUID {
  UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", group, number))!
}

let firstConnection = uuid(1, group: 0xC0)
let secondConnection = uuid(2, group: 0xC0)

/// A state plus helpers that speak the events the tests send most.
struct Harness {
  var state = QnAState()
  var effects: [QnAEffect] = []

  init(configuration: QnAConfiguration = QnAConfiguration()) {
    state = QnAState(configuration: configuration)
  }

  @discardableResult
  mutating func apply(_ event: QnAEvent) -> [QnAEffect] {
    let result = state.apply(event)
    effects += result
    return result
  }

  /// Connected with a handshake under `id`, announcing `extensions` (none: an existing back
  /// end).
  mutating func connect(
    _ id: UUID = firstConnection, attempt: Int = 1, extensions: [String]? = nil
  ) {
    apply(.connecting(attempt: attempt))
    apply(.connected)
    apply(.received(.handshake(Handshake(id: id, extensions: extensions))))
  }

  @discardableResult
  mutating func ask(_ text: String, _ token: Int) -> [QnAEffect] {
    apply(.ask(text, token: uuid(token)))
  }

  @discardableResult
  mutating func respond(
    _ content: String?, id: Int?, success: Bool = true, message: String = "Question created.",
    answered: Bool = false, createdAt: Double? = nil, token: Int? = nil,
    retryAfter: Double? = nil
  ) -> [QnAEffect] {
    let response = QuestionResponse(
      success: success, message: message, id: id.map { uuid($0, group: 0x5E) },
      answered: answered, content: content,
      createdAt: Date(timeIntervalSinceReferenceDate: createdAt ?? Double(id ?? 0)),
      token: token.map { uuid($0) }, retryAfter: retryAfter)
    return apply(.received(.questionResponse(response)))
  }

  @discardableResult
  mutating func answer(_ id: Int) -> [QnAEffect] {
    apply(.received(.questionAnswer(QuestionAnswer(questionId: uuid(id, group: 0x5E)))))
  }

  func status(_ token: Int) -> QuestionStatus? { state.question(token: uuid(token))?.status }

  /// Connected to a server of this project: every extension announced.
  mutating func connectToProjectServer(_ id: UUID = firstConnection) {
    apply(.connecting(attempt: 1))
    apply(.connected)
    apply(.received(.handshake(Handshake(id: id, extensions: projectExtensions))))
  }
}

let projectExtensions = [
  ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
]

extension [QnAEffect] {
  var sent: [NewQuestion] {
    compactMap { if case .send(let message, _) = $0 { message } else { nil } }
  }

  var changes: [QnAChange] {
    compactMap { if case .report(let change) = $0 { change } else { nil } }
  }

  /// The kind of each reported change, as the headless mode names it.
  var changeNames: [String] {
    changes.map { change in
      switch change {
      case .connecting: "connecting"
      case .connected: "connected"
      case .handshake: "handshake"
      case .queued: "queued"
      case .sent: "sent"
      case .created: "created"
      case .waiting: "waiting"
      case .failed: "failed"
      case .discarded: "discarded"
      case .answered: "answered"
      case .disconnected: "disconnected"
      case .notice: "notice"
      }
    }
  }
}
