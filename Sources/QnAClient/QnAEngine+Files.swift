import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What the engine keeps on disk: questions not yet delivered (the pending file) and who
/// this attendee is.
extension QnAEngine {
  func restorePending() -> [Question] {
    guard let pendingFile else { return [] }
    let lock: FileLock?
    do {
      lock = try pendingFile.lock()
    } catch {
      keepInMemory(because: "cannot keep questions typed here after quitting: \(error)")
      return []
    }
    guard let lock else {
      log("another qna is using \(pendingFile.url.path); unsent questions stay in memory")
      self.pendingFile = nil
      apply(
        .message(
          Message(
            "Another qna is connected to this server: questions typed here are not kept after quitting."
          ), kind: .info))
      return []
    }
    pendingLock = lock
    let entries: [PendingQuestionsFile.Entry]
    do {
      entries = try pendingFile.load()
    } catch {
      log("\(error); moved aside")
      if !pendingFile.quarantine() {
        // Saving now would overwrite what it may still hold.
        keepInMemory(because: "\(error), and it could not be moved aside")
      }
      return []
    }
    // What the file holds now: a change (a discard) is written back.
    savedPending = entries
    for entry in entries {
      switch (entry.failure, keptRefusals) {
      case (.some, .retry): apply(.restore(entry.content, token: entry.token))
      case (.some, .discard):
        apply(.restore(entry.content, token: entry.token, failure: entry.failure))
        apply(.discard(entry.token))
      default: apply(.restore(entry.content, token: entry.token, failure: entry.failure))
      }
    }
    restoreVotes()
    return entries.compactMap { state.question(token: $0.token) }
  }

  /// The votes and poll answers an earlier run kept, queued again (under the pending file's
  /// lock: one qna per server sends them). An unreadable file is moved aside, never
  /// overwritten.
  private func restoreVotes() {
    if let votesFile, let votes = restored(from: votesFile) {
      savedVotes = votes
      for vote in votes { apply(.restoreVote(vote)) }
    } else if votesFile != nil {
      votesFile = nil
    }
    if let answersFile, let answers = restored(from: answersFile) {
      savedAnswers = answers
      for answer in answers { apply(.restorePollAnswer(answer)) }
    } else if answersFile != nil {
      answersFile = nil
    }
  }

  /// What `file` keeps; `nil` when it was unreadable and could not be moved aside.
  private func restored<Entry>(from file: KeptEntriesFile<Entry>) -> [Entry]? {
    do {
      return try file.load()
    } catch {
      log("\(error); \(file.url.lastPathComponent) moved aside")
      let aside = file.url.appendingPathExtension("unreadable")
      unlink(aside.path)
      return rename(file.url.path, aside.path) == 0 ? [] : nil
    }
  }

  /// Writes the unanswered votes and poll answers when they changed (only while this run
  /// holds the lock).
  func saveVotes() {
    guard pendingLock != nil else { return }
    if let votesFile, state.room.keptVotes != savedVotes {
      let votes = state.room.keptVotes
      do {
        try votesFile.save(votes)
        savedVotes = votes
      } catch {
        log("\(error)")
      }
    }
    if let answersFile, state.room.polls.kept != savedAnswers {
      let answers = state.room.polls.kept
      do {
        try answersFile.save(answers)
        savedAnswers = answers
      } catch {
        log("\(error)")
      }
    }
  }

  /// Writes the pending questions when they changed.
  func savePending() {
    guard let pendingFile else { return }
    let entries = state.pendingQuestions.map { question in
      var failure: String?
      if case .failed(let reason) = question.status { failure = reason }
      return PendingQuestionsFile.Entry(
        token: question.id, content: question.content, failure: failure)
    }
    guard entries != savedPending else { return }
    do {
      try pendingFile.save(entries)
      savedPending = entries
      saveFailing = false
    } catch {
      log("\(error)")
      if !saveFailing {
        // Once per run of failures: quitting now would lose what is not saved.
        saveFailing = true
        apply(.message(Message("Questions typed here are not saved: %s", "\(error)"), kind: .error))
      }
    }
  }

  /// The pending file cannot be used: questions stay in memory only, and the attendee hears.
  func keepInMemory(because reason: String) {
    log(reason)
    pendingFile = nil
    apply(.notice(reason.prefix(1).uppercased() + reason.dropFirst(), kind: .error))
  }

  /// Tells the state who this attendee is: the id kept for this server, or a new one.
  func introduceAttendee() {
    var identity = AttendeeFile.Identity(attendee: makeToken(), credential: nil)
    if let attendeeFile {
      do {
        identity = try attendeeFile.load { identity.attendee }
      } catch {
        log("\(error); this run's attendee id is not kept")
      }
    }
    apply(
      .identity(attendee: identity.attendee, name: attendeeName, credential: identity.credential))
  }

  /// The server issued this attendee's identity (extension `identity`): kept for next time.
  func keepIdentity(attendee: UUID, credential: UUID) {
    guard let attendeeFile else { return }
    do {
      try attendeeFile.keep(.init(attendee: attendee, credential: credential))
    } catch {
      log("\(error); this attendee's identity is not kept")
    }
  }
}
