import CommandLineValues
import QnA
import QnAClient
import RFC6455
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `qna --headless`: the engine with JSON lines on stdout instead of a screen.
struct Headless {
  struct Options {
    var asks: [String]
    var readsStdin: Bool
    var waitAnswered: Bool
    var exitAfterSend: Bool
    /// Print the room's questions (`room` lines), and cast these votes once the room is in.
    var room: Bool
    var votes: [UUID]
    /// Poll answers to give once their polls are in the room (`--poll ID=CHOICE`).
    var polls: [PollChoice] = []
    var timeout: Duration?
    var verbose: Bool
  }

  enum ExitStatus: Int32 {
    case success = 0
    case failed = 1
    case timedOut = 5
    case usage = 64
  }

  /// Everything the main loop waits for, from its several sources.
  private enum Input: Sendable {
    case update(EngineUpdate)
    /// A `/vote ID` or `/unvote ID` line.
    case vote(UUID, up: Bool)
    /// A `/poll ID CHOICE` line.
    case poll(PollChoice)
    case changesEnded
    case asked(text: String, question: Question?)
    case inputEnded
    case timedOut
    case interrupted
  }

  let url: WebSocketURL
  let configuration: EngineConfiguration
  let options: Options

  func run() async -> ExitStatus {
    let verbose = options.verbose
    let engine = QnAEngine(
      url: url, configuration: configuration,
      log: { line in if verbose { Self.note(line) } })
    let (inputs, sink) = AsyncStream<Input>.makeStream()
    // Watched before anything starts: a dispatch signal source registers asynchronously, and a
    // signal between ignoring it and that registration would be lost (a script that sends
    // SIGINT right after the handshake line must always stop qna).
    let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in sink.yield(.interrupted) }
    defer { signals.cancel() }
    let (restored, asked) = await engine.start(asking: options.asks)
    for (text, question) in zip(options.asks, asked) {
      sink.yield(.asked(text: text, question: question))
    }
    // One update at a time in `inputs`: the next is taken from the engine only once this one
    // is printed, so that while stdout blocks (a pipe nobody reads) updates wait merged in the
    // engine, bounded by the room, not one by one here.
    let (printed, printedSink) = AsyncStream<Void>.makeStream()
    Task {
      var acks = printed.makeAsyncIterator()
      for await update in engine.updates {
        sink.yield(.update(update))
        guard await acks.next() != nil else { break }
      }
      sink.yield(.changesEnded)
    }
    startAsking(engine, into: sink)
    if let timeout = options.timeout {
      Task {
        try await Task.sleep(for: timeout)
        sink.yield(.timedOut)
      }
    }
    // Questions left pending by an earlier run are this run's to see through, too.
    var progress = Progress(asked: restored.map(\.id))
    var votes = VoteQueue(waiting: options.votes.map { ($0, true) })
    // Votes to cast are not settled before the first update says so: stdin's end may come
    // first, and must not end the run before them.
    progress.votesSettled = options.votes.isEmpty
    var polls = PollAnswerQueue(waiting: options.polls)
    progress.pollsSettled = options.polls.isEmpty
    var iterator = inputs.makeAsyncIterator()
    while let input = await iterator.next() {
      switch input {
      case .update(let update):
        for change in update.changes {
          if !options.room, change.isRoomLine { continue }
          Self.print(HeadlessEvents.line(for: change))
          progress.record(change)
        }
        printedSink.yield(())
        let finishing = options.waitAnswered || options.exitAfterSend
        if await polls.give(on: engine, once: update.state) {
          progress.pollsSettled = false
        } else {
          progress.pollsSettled = polls.settled(in: update.state, finishing: finishing)
        }
        if let failure = polls.failure(in: update.state, finishing: finishing) {
          Self.note(failure)
          return await finish(engine, &iterator, printed: printedSink, .failed)
        }
        // Votes just cast are not in this update's state yet: the next update has them.
        guard await !votes.cast(on: engine, once: update.state) else {
          progress.votesSettled = false
          continue
        }
        votes.observe(update.state)
        progress.votesSettled = votes.settled(in: update.state)
        if let failure = votes.failure(after: update, options.waitAnswered || options.exitAfterSend)
        {
          Self.note(failure)
          return await finish(engine, &iterator, printed: printedSink, .failed)
        }
      case .vote(let question, let up):
        votes.waiting.append((question, up))
        if await votes.cast(on: engine, once: await engine.state) { progress.votesSettled = false }
      case .poll(let choice):
        polls.waiting.append(choice)
        progress.pollsSettled = false
        await polls.give(on: engine, once: await engine.state)
      case .asked(let text, let question):
        guard let question else {
          if options.waitAnswered || options.exitAfterSend {
            Self.note("question refused: \(text.prefix(60))")
            return await finish(engine, &iterator, printed: printedSink, .failed)
          }
          continue
        }
        progress.asked.append(question.id)
      case .inputEnded:
        progress.inputEnded = true
      case .changesEnded:
        if let reason = progress.lastDisconnect, progress.outcome(options) != .done {
          Self.note("connection ended: \(reason)")
          return .failed
        }
        return .success
      case .timedOut:
        Self.note(
          "timed out after \(DurationValue.format(options.timeout ?? .zero)): "
            + progress.shortfall(options))
        return await finish(engine, &iterator, printed: printedSink, .timedOut)
      case .interrupted:
        return await finish(engine, &iterator, printed: printedSink, .success)
      }
      switch progress.outcome(options) {
      case .pending: continue
      case .done: return await finish(engine, &iterator, printed: printedSink, .success)
      case .failed(let failures):
        for failure in failures {
          Self.note(
            "question failed: \(failure.content.prefix(60)): \(failure.reason)")
        }
        return await finish(engine, &iterator, printed: printedSink, .failed)
      }
    }
    return .success
  }

  /// Closes the connection, prints the changes still on their way (the last notices, the
  /// disconnect), and returns `status`.
  private func finish(
    _ engine: QnAEngine, _ iterator: inout AsyncStream<Input>.AsyncIterator,
    printed: AsyncStream<Void>.Continuation, _ status: ExitStatus
  ) async -> ExitStatus {
    await engine.stop()
    while let input = await iterator.next() {
      if case .update(let update) = input {
        for change in update.changes {
          if !options.room, change.isRoomLine { continue }
          Self.print(HeadlessEvents.line(for: change))
        }
        printed.yield(())
      }
      if case .changesEnded = input { break }
    }
    return status
  }

  /// Stdin lines, each asked in turn (the `--ask` questions were, as the engine started).
  private func startAsking(_ engine: QnAEngine, into sink: AsyncStream<Input>.Continuation) {
    let lines = options.readsStdin ? StandardInputLines() : nil
    Task {
      if let lines {
        // Blank lines separate questions in files; they are not questions themselves.
        for await line in lines where !line.allSatisfy(\.isWhitespace) {
          switch StdinLine(line) {
          case .question(let text): sink.yield(.asked(text: text, question: await engine.ask(text)))
          case .vote(let id, let up): sink.yield(.vote(id, up: up))
          case .poll(let choice): sink.yield(.poll(choice))
          case .invalid(let reason): Self.note(reason)
          }
        }
      }
      sink.yield(.inputEnded)
    }
  }

  static func print(_ line: JSONLine) {
    StandardStream.output.write(line.description + "\n")
  }

  /// One line on stderr; server text in it is escaped, so that it cannot act on a terminal.
  static func note(_ line: String) {
    StandardStream.error.write("qna: \(PrintableText.escaped(line))\n")
  }

  static func fail(_ line: String, status: ExitStatus) -> Never {
    note(line)
    exit(status.rawValue)
  }
}

/// What has happened to the questions asked here, for the exit conditions.
private struct Progress {
  var asked: [UUID] = []
  var inputEnded = false
  /// Stored by the server (or answered, which implies it).
  var confirmed: Set<UUID> = []
  var answered: Set<UUID> = []
  /// Refused for good, and not retried since.
  var failures: [UUID: Failure] = [:]
  var lastDisconnect: String?
  /// Every vote cast has the server's answer.
  var votesSettled = true
  var pollsSettled = true

  struct Failure: Equatable {
    var content: String
    var reason: String
  }

  enum Outcome: Equatable {
    case pending
    case done
    /// Every question has the server's verdict, and these were refused.
    case failed([Failure])
  }

  mutating func record(_ change: QnAChange) {
    switch change {
    case .created(let question, _):
      confirmed.insert(question.id)
      failures[question.id] = nil
    case .answered(let question):
      confirmed.insert(question.id)
      answered.insert(question.id)
    case .failed(let question, let reason):
      failures[question.id] = Failure(content: question.content, reason: reason)
    case .queued(let question), .sent(let question), .waiting(let question, _, _):
      failures[question.id] = nil
    case .discarded(let question):
      failures[question.id] = nil
      asked.removeAll { $0 == question.id }
    case .disconnected(let reason, _): lastDisconnect = reason
    case .handshake: lastDisconnect = nil
    default: break
    }
  }

  /// Done once every question is answered (`--wait-answered`) or stored (`--exit-after-send`);
  /// failed once every question has a verdict and one was refused for good, so that all the
  /// refusals are reported, not only the first.
  func outcome(_ options: Headless.Options) -> Outcome {
    guard inputEnded, votesSettled, pollsSettled, options.waitAnswered || options.exitAfterSend
    else {
      return .pending
    }
    let refused = asked.compactMap { failures[$0] }
    if !refused.isEmpty {
      return asked.allSatisfy { confirmed.contains($0) || failures[$0] != nil }
        ? .failed(refused) : .pending
    }
    let goal = options.waitAnswered ? answered : confirmed
    return asked.allSatisfy(goal.contains) ? .done : .pending
  }

  func shortfall(_ options: Headless.Options) -> String {
    if !inputEnded { return "input still open" }
    if options.waitAnswered {
      let missing = asked.filter { !answered.contains($0) }.count
      return "\(missing) of \(asked.count) questions not answered"
    }
    let missing = asked.filter { !confirmed.contains($0) }.count
    return "\(missing) of \(asked.count) questions not stored by the server"
  }
}

extension QnAChange {
  /// A line of the room (a question or a poll): printed with `--room` only.
  var isRoomLine: Bool {
    switch self {
    case .roomQuestion, .poll: true
    default: false
    }
  }
}
