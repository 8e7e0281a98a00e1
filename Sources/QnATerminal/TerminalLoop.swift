import CNcurses
import CommandLineValues
import QnA
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The UI thread: owns ncurses, sleeps in `poll` on stdin and the inbox's pipe until a key,
/// news or a timer (a countdown, a notice's end) needs the screen, then paints the cells that
/// changed. Nothing else touches the terminal while it runs.
final class TerminalLoop {
  enum Outcome: Sendable {
    case quit
    /// SIGINT, SIGTERM or SIGHUP from outside.
    case signalled(Int32)
    case failed(String)
  }

  private var model: TerminalModel
  private let inbox: TerminalInbox
  private let clock: any SessionClock
  private let actions: AsyncStream<TerminalAction>.Continuation
  private let bell: Bool
  private let notifier: DesktopNotifier?
  private var answerNotices = AnswerNotices()
  private let mouse: Bool

  init(
    model: TerminalModel, inbox: TerminalInbox, clock: any SessionClock,
    actions: AsyncStream<TerminalAction>.Continuation, bell: Bool, notifier: DesktopNotifier?,
    mouse: Bool
  ) {
    self.model = model
    self.inbox = inbox
    self.clock = clock
    self.actions = actions
    self.bell = bell
    self.notifier = notifier
    self.mouse = mouse
  }

  func run() -> Outcome {
    let screen: NcursesScreen
    do {
      screen = try NcursesScreen(mouse: mouse)
    } catch {
      return .failed(error.description)
    }
    defer { screen.end() }
    if !screen.hasColors { model.options.colors = false }
    let size = screen.size
    model.resize(rows: size.rows, columns: size.columns)
    while true {
      model.now = clock.now
      screen.paint(TerminalView.render(model))
      if !waitForInput() { return .signalled(SIGHUP) }
      if let outcome = takeNews(screen) { return outcome }
      for key in readKeys(screen) {
        if key == .resize {
          // ncurses has resized its screen already.
          resized(screen)
          continue
        }
        for action in model.handle(key) {
          switch action {
          case .quit: return .quit
          case .redraw: screen.forgetScreen()
          case .ask, .retry, .discard, .vote, .reconnectNow, .act, .undo, .label, .answerPoll,
            .pollAction:
            actions.yield(action)
          }
        }
      }
    }
  }

  /// Every key waiting, with runs of text joined: a large paste is one insertion, not one per
  /// character.
  private func readKeys(_ screen: NcursesScreen) -> [Key] {
    var keys: [Key] = []
    while let key = screen.readKey() {
      // Keys that act on an empty line ("?", "+", "/") stay keys of their own.
      if case .text(let more) = key, case .text(let text)? = keys.last,
        !TerminalModel.emptyLineKeys.contains(text)
      {
        keys[keys.count - 1] = .text(text + more)
      } else {
        keys.append(key)
      }
    }
    return keys
  }

  /// Sleeps until stdin or the inbox is readable, or the screen's next timed change. False
  /// when the terminal is gone (hung up without a SIGHUP reaching us).
  private func waitForInput() -> Bool {
    var timeout: Int32 = -1
    if let next = model.nextChange {
      let left = max(.zero, next - clock.now)
      timeout = Int32(min(3_600_000, (left / .milliseconds(1)).rounded(.up)))
    }
    var fds = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: inbox.wakeFD, events: Int16(POLLIN), revents: 0),
    ]
    guard poll(&fds, 2, timeout) > 0 else { return true }
    return fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) == 0
  }

  private func takeNews(_ screen: NcursesScreen) -> Outcome? {
    let news = inbox.take()
    // The bell also rings when a question of the attendee's becomes the one answered now.
    if let state = news.state, model.update(state: state) {
      if bell { beep() }
      if let question = state.nowAnswering?.question {
        notify(tr("Your question is being answered now"), question.content)
      }
    }
    for _ in 0..<news.taken { model.askTaken() }
    for text in news.refused { model.restoreInput(text) }
    if bell, news.answers > 0 { beep() }
    if let notice = answerNotices.notice(for: news.answered) { notify(notice.title, notice.body) }
    for signal in news.signals.sorted() {
      if signal == SIGWINCH {
        resize(screen)
      } else {
        return .signalled(signal)
      }
    }
    return nil
  }

  /// A desktop notification, written straight to the terminal after ncurses' last output
  /// (the screen is painted and flushed by then; the sequence moves no cursor).
  private func notify(_ title: String, _ body: String) {
    guard let notifier else { return }
    let bytes = notifier.sequence(title: title, body: body)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      var attempts = 0
      while offset < buffer.count, attempts < 100 {
        let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR || errno == EAGAIN {
          attempts += 1
          usleep(1000)
        } else {
          break
        }
      }
      // Cut short: a BEL ends the sequence, or the terminal would swallow the next screen.
      if offset > 0, offset < buffer.count { _ = write(STDOUT_FILENO, "\u{7}", 1) }
    }
  }

  /// After SIGWINCH: tells ncurses the new size if it has not noticed (resizeterm queues a
  /// KEY_RESIZE, which then lands in `resized`).
  private func resize(_ screen: NcursesScreen) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    if qna_terminal_size(STDOUT_FILENO, &rows, &columns) == 0, is_term_resized(rows, columns) {
      resizeterm(rows, columns)
    }
    resized(screen)
  }

  private func resized(_ screen: NcursesScreen) {
    let size = screen.size
    model.resize(rows: size.rows, columns: size.columns)
    screen.forgetScreen()
  }
}
