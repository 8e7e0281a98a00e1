#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Connection changes: status, round trip, and the queue they release or refill.
extension QnAState {
  mutating func applyConnectionChange(_ event: QnAEvent) -> [QnAEffect] {
    switch event {
    case .connecting(let attempt):
      connection = .connecting(attempt: attempt)
      return [.report(.connecting(attempt: attempt))]
    case .connected:
      connection = .awaitingHandshake
      return [.report(.connected)]
    case .roundTrip(let time):
      roundTrip = time
      stalledFor = nil
      return []
    case .stalled(let waited):
      stalledFor = waited
      return []
    case .disconnected(let reason, let retry):
      stalledFor = nil
      if let retry {
        connection = .waitingToRetry(at: now + retry.after, attempt: retry.attempt, reason: reason)
      } else {
        connection = .offline(reason: reason)
      }
      requeueVotes()
      requeueActions()
      return [.report(.disconnected(reason: reason, retry: retry))] + requeueSending()
    default:
      return []
    }
  }

  mutating func handshake(_ message: Handshake) -> [QnAEffect] {
    connection = .ready(connectionID: message.id)
    handshakes += 1
    let extensions = Set(message.extensions ?? [])
    serverExtensions = extensions
    session = message.session.map(Self.bounded)
    var effects: [QnAEffect] = [.report(.handshake(connectionID: message.id, session: session))]
    // The room first: the server then knows who asks and votes on this connection.
    room.isAvailable = extensions.contains(ProtocolExtension.room)
    room.isCompact = extensions.contains(ProtocolExtension.counts)
    room.joined = false
    room.identityWork =
      extensions.contains(ProtocolExtension.identityWork)
      ? message.identityWork.flatMap { $0.isPayable ? $0 : nil } : nil
    room.workSent = false
    room.workAsked = false
    if room.isAvailable {
      effects += join(message.id)
    } else if configuration.expectsRoom, !warnedAboutNoRoom {
      warnedAboutNoRoom = true
      effects.append(notice(Message("This server shows only your own questions."), kind: .info))
    }
    if configuration.presenter, !extensions.contains(ProtocolExtension.presenter),
      !warnedAboutNoPresenter
    {
      warnedAboutNoPresenter = true
      effects.append(
        notice(
          Message(
            "This server does not take presenter actions on this connection: check the token."),
          kind: .error))
    }
    if extensions.contains(ProtocolExtension.resume) {
      let mine = questions.values.filter { $0.status == .unanswered }.sorted {
        $0.sequence < $1.sequence
      }.compactMap(\.serverID)
      // Several small messages rather than one a server would close the socket for (1009).
      let chunkSize = Self.resumeChunk(serverLimit: message.maxMessageSize)
      var start = 0
      while start < mine.count {
        let chunk = Array(mine[start..<min(mine.count, start + chunkSize)])
        effects.append(.resume(Resume(id: message.id, questions: chunk)))
        start += chunkSize
      }
    } else if handshakes > 1, !warnedAboutLostAnswers {
      warnedAboutLostAnswers = true
      effects.append(
        notice(
          Message(
            "This server cannot resume: answers given while you were disconnected may not arrive."),
          kind: .info))
    }
    let resending = unconfirmed.contains { token in
      guard let question = questions[token] else { return false }
      return question.status == .queued && question.sendCount > 0
    }
    let sends = dispatchReady()
    if !extensions.contains(ProtocolExtension.token), handshakes > 1, resending,
      !warnedAboutDuplicates
    {
      warnedAboutDuplicates = true
      effects.append(
        notice(
          Message(
            "This server cannot tell a resent question from a new one: it may show some twice."),
          kind: .info))
    }
    return effects + sends + sendVotes() + sendActions()
  }

  /// Ids per `resume`: 256 UUIDs are about 10 KB of JSON, under the 16 KiB message limit of
  /// the existing back ends.
  static let resumeChunk = 256

  /// Ids per `resume` under a server's announced limit: 39 bytes an id, 120 for the rest.
  static func resumeChunk(serverLimit: Int?) -> Int {
    guard let serverLimit else { return resumeChunk }
    return min(resumeChunk, max(1, (serverLimit - 120) / 39))
  }
}

extension QnAState {
  /// Longest session title kept from a server: a header line shows it.
  static let maxSessionTitle = 200

  static func bounded(_ session: SessionInfo) -> SessionInfo {
    SessionInfo(
      code: String(session.code.uppercased().prefix(16)),
      title: String(session.title.prefix(maxSessionTitle)),
      open: session.open)
  }
}
