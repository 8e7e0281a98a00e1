import CommandLineValues
import Foundation
import QnA
import QnAClient
import RFC6455
import WebSocketClient

/// `qna --headless`: the engine with JSON lines on stdout instead of a screen.
struct Headless {
  struct Options {
    var asks: [String]
    var readsStdin: Bool
    var waitAnswered: Bool
    var exitAfterSend: Bool
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
    case change(QnAChange)
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
    let restored = await engine.start()
    Task {
      for await change in engine.changes { sink.yield(.change(change)) }
      sink.yield(.changesEnded)
    }
    startAsking(engine, into: sink)
    if let timeout = options.timeout {
      Task {
        try await Task.sleep(for: timeout)
        sink.yield(.timedOut)
      }
    }
    let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { _ in sink.yield(.interrupted) }
    defer { signals.cancel() }

    // Questions left pending by an earlier run are this run's to see through, too.
    var progress = Progress(asked: restored.map(\.id))
    var iterator = inputs.makeAsyncIterator()
    while let input = await iterator.next() {
      switch input {
      case .change(let change):
        Self.print(HeadlessEvents.line(for: change))
        progress.record(change)
      case .asked(let text, let question):
        guard let question else {
          if options.waitAnswered || options.exitAfterSend {
            Self.note("question refused: \(text.prefix(60))")
            return await finish(engine, &iterator, .failed)
          }
          continue
        }
        progress.asked.append(question.id)
      case .inputEnded:
        progress.inputEnded = true
      case .changesEnded:
        if let reason = progress.lastDisconnect, !progress.isDone(options) {
          Self.note("connection ended: \(reason)")
          return .failed
        }
        return .success
      case .timedOut:
        Self.note(
          "timed out after \(DurationValue.format(options.timeout ?? .zero)): "
            + progress.shortfall(options))
        return await finish(engine, &iterator, .timedOut)
      case .interrupted:
        return await finish(engine, &iterator, .success)
      }
      if options.waitAnswered, let failure = progress.firstFailure {
        Self.note("question failed: \(failure)")
        return await finish(engine, &iterator, .failed)
      }
      if progress.isDone(options) { return await finish(engine, &iterator, .success) }
    }
    return .success
  }

  /// Closes the connection, prints the changes still on their way (the last notices, the
  /// disconnect), and returns `status`.
  private func finish(
    _ engine: QnAEngine, _ iterator: inout AsyncStream<Input>.AsyncIterator, _ status: ExitStatus
  ) async -> ExitStatus {
    await engine.stop()
    while let input = await iterator.next() {
      if case .change(let change) = input { Self.print(HeadlessEvents.line(for: change)) }
      if case .changesEnded = input { break }
    }
    return status
  }

  /// `--ask` questions first, then stdin lines, each asked in turn.
  private func startAsking(_ engine: QnAEngine, into sink: AsyncStream<Input>.Continuation) {
    let lines = options.readsStdin ? StandardInputLines() : nil
    let asks = options.asks
    Task {
      for text in asks {
        sink.yield(.asked(text: text, question: await engine.ask(text)))
      }
      if let lines {
        // Blank lines separate questions in files; they are not questions themselves.
        for await line in lines where !line.allSatisfy(\.isWhitespace) {
          sink.yield(.asked(text: line, question: await engine.ask(line)))
        }
      }
      sink.yield(.inputEnded)
    }
  }

  static func print(_ line: JSONLine) {
    FileHandle.standardOutput.write(Data((line.description + "\n").utf8))
  }

  static func note(_ line: String) {
    FileHandle.standardError.write(Data("qna: \(line)\n".utf8))
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
  var sent: Set<UUID> = []
  var answered: Set<UUID> = []
  var failures: [UUID: String] = [:]
  var lastDisconnect: String?

  mutating func record(_ change: QnAChange) {
    switch change {
    case .sent(let question): sent.insert(question.id)
    case .answered(let question): answered.insert(question.id)
    case .failed(let question, let reason): failures[question.id] = reason
    case .created(let question, _): failures[question.id] = nil
    case .disconnected(let reason, _): lastDisconnect = reason
    case .handshake: lastDisconnect = nil
    default: break
    }
  }

  var firstFailure: String? {
    asked.lazy.compactMap { failures[$0] }.first
  }

  func isDone(_ options: Headless.Options) -> Bool {
    guard inputEnded else { return false }
    if options.waitAnswered { return asked.allSatisfy(answered.contains) }
    if options.exitAfterSend { return asked.allSatisfy(sent.contains) }
    return false
  }

  func shortfall(_ options: Headless.Options) -> String {
    if !inputEnded { return "input still open" }
    if options.waitAnswered {
      let missing = asked.filter { !answered.contains($0) }.count
      return "\(missing) of \(asked.count) questions not answered"
    }
    let missing = asked.filter { !sent.contains($0) }.count
    return "\(missing) of \(asked.count) questions not sent"
  }
}
