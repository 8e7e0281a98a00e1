import CNcurses
import CommandLineValues
import QnA
import QnAClient
import Synchronization
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `qna` with a screen: the engine on the cooperative pool, the UI on a thread of its own,
/// news between them through a `TerminalInbox`, keys back as `TerminalAction`s.
public enum TerminalFrontEnd {
  public struct Options: Sendable {
    public var colors: Bool
    public var bell: Bool
    public var mouse: Bool
    /// The list shown first (the room only where the server has it).
    public var view: ListView
    /// The presenter's console instead of the attendee's screen.
    public var presenter: Bool
    /// Desktop notifications through the terminal (`--notify`), when it can show them.
    public var notifier: DesktopNotifier?
    /// For screen readers and braille displays (`--screen-reader`, `QNA_SCREEN_READER`).
    public var screenReader: Bool
    /// `qna screen`: the room drawn for a projector.
    public var projector: ProjectorScreen?
    /// The presenter's console: how attendees join (`j`).
    public var join: ProjectorScreen?

    public init(
      colors: Bool, bell: Bool, mouse: Bool, view: ListView = .room, presenter: Bool = false,
      notifier: DesktopNotifier? = nil, screenReader: Bool = false
    ) {
      self.presenter = presenter
      self.screenReader = screenReader
      self.notifier = notifier
      self.colors = colors
      self.bell = bell
      self.mouse = mouse
      self.view = view
    }
  }

  public enum Failure: Error, CustomStringConvertible {
    case notATerminal
    case screen(String)

    public var description: String {
      switch self {
      case .notATerminal:
        tr("stdin and stdout must be a terminal; for scripts and pipes, use --headless")
      case .screen(let reason): reason
      }
    }
  }

  /// Whether the terminal UI can start here at all (checked before anything else starts).
  public static var hasTerminal: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Runs until the user quits or a signal arrives; the terminal is restored on return.
  /// Returns the signal that ended it, if one did.
  public static func run(
    engine: QnAEngine, clock: any SessionClock, log: LogFile, options: Options
  ) async throws(Failure) -> Int32? {
    guard hasTerminal else { throw .notATerminal }
    let inbox = TerminalInbox()
    // The inbox keeps only the latest state for the UI thread; the connection's story goes
    // to the log (escaped there), for whoever debugs it later.
    let updates = Task {
      for await update in engine.updates {
        inbox.post(state: update.state, changes: update.changes)
        for change in update.changes {
          switch change {
          case .connecting, .handshake, .disconnected, .failed, .waiting:
            log.write(HeadlessEvents.line(for: change).description)
          default: break
          }
        }
      }
    }
    // Watched before anything starts (a dispatch signal source registers asynchronously: a
    // signal before that would be lost).
    let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP, SIGWINCH]) { number in
      inbox.post(signal: number)
    }
    await engine.start()
    var model = TerminalModel(
      options: .init(
        url: engine.url.description, colors: options.colors,
        maxLength: await engine.state.configuration.maxQuestionLength,
        keepsQueuedQuestions: await engine.keepsPendingQuestions, presenter: options.presenter,
        screenReader: options.screenReader),
      state: await engine.state)
    model.options.projector = options.projector
    model.options.join = options.join
    model.chosenView = options.view
    let (actions, actionSink) = AsyncStream<TerminalAction>.makeStream()
    let performer = Task {
      for await action in actions {
        switch action {
        case .ask(let text):
          if await engine.ask(text) == nil {
            inbox.post(refused: text)
          } else {
            inbox.postTaken()
          }
        case .retry(let token): await engine.retry(token)
        case .discard(let token): await engine.discard(token)
        case .vote(let question, let up): await engine.vote(question, up: up)
        case .act(let kind, let question, let text, let isPrivate):
          await engine.act(kind, on: question, text: text, isPrivate: isPrivate)
        case .undo: await engine.undo()
        case .label(let name): await engine.chooseLabel(name)
        case .answerPoll(let poll, let value): await engine.answerPoll(poll, value)
        case .pollAction(let kind, let poll, let text):
          await engine.actOnPoll(kind, poll, text: text)
        case .reconnectNow: await engine.reconnectNow()
        case .quit, .redraw: break
        }
      }
    }
    let restoreStandardError = log.captureStandardError()
    qna_install_crash_restore(STDOUT_FILENO, dup(STDOUT_FILENO))
    let startingModel = model
    let outcome = await onUIThread {
      TerminalLoop(
        model: startingModel, inbox: inbox, clock: clock, actions: actionSink, bell: options.bell,
        notifier: options.notifier, mouse: options.mouse
      ).run()
    }
    restoreStandardError()
    signals.cancel()
    // Questions typed just before quitting still reach the engine (and its pending file).
    actionSink.finish()
    await performer.value
    await stop(engine, within: .seconds(3), log: log)
    updates.cancel()
    qna_remove_crash_restore()
    switch outcome {
    case .quit: return nil
    case .signalled(let number): return number
    case .failed(let reason): throw .screen(reason)
    }
  }

  private static func onUIThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DetachedThread.start { continuation.resume(returning: body()) }
    }
  }

  /// Closes with 1000, but does not let a dead network hold the user's shell.
  private static func stop(_ engine: QnAEngine, within limit: Duration, log: LogFile) async {
    let done = ResumeOnce()
    await withCheckedContinuation { continuation in
      done.set(continuation)
      Task {
        await engine.stop()
        done.resume()
      }
      Task {
        try? await Task.sleep(for: limit)
        if done.resume() {
          log.write("the connection did not close within \(limit); leaving anyway")
        }
      }
    }
  }
}

/// A continuation that whichever comes first resumes.
private final class ResumeOnce: Sendable {
  private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)

  func set(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation.withLock { $0 = continuation }
  }

  /// Whether this call was the one that resumed it.
  @discardableResult
  func resume() -> Bool {
    guard let waiting = continuation.withLock({ $0.take() }) else { return false }
    waiting.resume()
    return true
  }
}
