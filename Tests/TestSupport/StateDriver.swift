import Foundation
import QnA

/// Drives a `QnAState` the way the engine does, by applying events, with helpers for the
/// events tests send most. Tokens are `uuid(n)`, server ids `uuid(n, group: 0x5E)`.
public struct StateDriver {
  public var state: QnAState
  /// Every effect applied so far.
  public var effects: [QnAEffect] = []
  /// The number the next `ask(_:)` without one takes.
  private var nextToken = 1

  public init(configuration: QnAConfiguration = QnAConfiguration(), now: Duration = .zero) {
    state = QnAState(configuration: configuration)
    if now > .zero { apply(.clock(now)) }
  }

  @discardableResult
  public mutating func apply(_ event: QnAEvent) -> [QnAEffect] {
    let result = state.apply(event)
    effects += result
    return result
  }

  /// Connected with a handshake under `id`, announcing `extensions` (none: an existing back
  /// end).
  public mutating func connect(
    _ id: UUID = firstConnection, attempt: Int = 1, extensions: [String]? = nil
  ) {
    apply(.connecting(attempt: attempt))
    apply(.connected)
    apply(.received(.handshake(Handshake(id: id, extensions: extensions))))
  }

  /// Connected to a server of this project: every extension announced.
  public mutating func connectToProjectServer(_ id: UUID = firstConnection) {
    connect(id, extensions: Self.projectExtensions)
  }

  public static let projectExtensions = [
    ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
  ]

  /// Typed under token `uuid(token)`.
  @discardableResult
  public mutating func ask(_ text: String, _ token: Int) -> [QnAEffect] {
    nextToken = max(nextToken, token + 1)
    return apply(.ask(text, token: uuid(token)))
  }

  /// Typed under the next unused token, which it returns.
  @discardableResult
  public mutating func ask(_ text: String) -> UUID {
    let token = nextToken
    ask(text, token)
    return uuid(token)
  }

  /// A `questionResponse`: `id` n is `uuid(n, group: 0x5E)`, `token` n is `uuid(n)`.
  @discardableResult
  public mutating func respond(
    _ content: String?, id: Int?, success: Bool = true, message: String = "Question created.",
    answered: Bool = false, createdAt: Double? = nil, token: Int? = nil,
    retryAfter: Double? = nil
  ) -> [QnAEffect] {
    // Seconds since 2001 (the wire's dates); the id's number by default, so ids sort by age.
    let response = QuestionResponse(
      success: success, message: message, id: id.map { uuid($0, group: 0x5E) },
      answered: answered, content: content,
      createdAt: Date(timeIntervalSinceReferenceDate: createdAt ?? Double(id ?? 0)),
      token: token.map { uuid($0) }, retryAfter: retryAfter)
    return apply(.received(.questionResponse(response)))
  }

  /// Confirmed by a server that echoes tokens: unanswered, created `minute` minutes into a
  /// fixed hour. Returns the server id (the token's number in group 0x5E).
  @discardableResult
  public mutating func confirm(_ token: UUID, minute: Int = 0) -> UUID {
    let number = Int(token.uuidString.suffix(12), radix: 16)!
    // 2027-01-15T08:00:00Z (1,800,000,000 s since 1970) plus the minutes.
    respond(
      state.question(token: token)?.content, id: number, message: "Question created",
      createdAt: 821_692_800 + Double(minute), token: number)
    return uuid(number, group: 0x5E)
  }

  /// Refused for good (without `retryAfter`), or for now (with it), echoing the token.
  public mutating func refuse(_ token: UUID, reason: String, retryAfter: Double? = nil) {
    apply(
      .received(
        .questionResponse(
          QuestionResponse(success: false, message: reason, token: token, retryAfter: retryAfter)
        )))
  }

  /// Asked, confirmed and, with `answered`, answered. Returns the server id.
  @discardableResult
  public mutating func asked(_ text: String, answered: Bool = false) -> UUID {
    let token = ask(text)
    let serverID = confirm(token, minute: nextToken)
    if answered { answer(serverID) }
    return serverID
  }

  @discardableResult
  public mutating func answer(_ id: Int) -> [QnAEffect] {
    answer(uuid(id, group: 0x5E))
  }

  @discardableResult
  public mutating func answer(_ serverID: UUID) -> [QnAEffect] {
    apply(.received(.questionAnswer(QuestionAnswer(questionId: serverID))))
  }

  public func status(_ token: Int) -> QuestionStatus? { state.question(token: uuid(token))?.status }
}

extension [QnAEffect] {
  public var sent: [NewQuestion] {
    compactMap { if case .send(let message, _) = $0 { message } else { nil } }
  }

  public var changes: [QnAChange] {
    compactMap { if case .report(let change) = $0 { change } else { nil } }
  }

  /// The kind of each reported change, as the headless mode names it.
  public var changeNames: [String] {
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
      case .roomQuestion: "room"
      case .action: "action"
      case .disconnected: "disconnected"
      case .notice: "notice"
      case .session: "session"
      case .announcement: "announcement"
      case .poll: "poll"
      }
    }
  }
}
