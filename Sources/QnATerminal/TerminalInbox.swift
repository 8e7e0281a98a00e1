import QnA
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Where other threads leave news for the UI thread, with a pipe to wake it: the UI thread
/// polls the pipe's read end together with stdin, so it sleeps until there is something to
/// do. News coalesces: only the latest state is kept.
final class TerminalInbox: Sendable {
  struct News {
    var state: QnAState?
    var answers = 0
    /// The attendee's own questions answered since the last take.
    var answered: [Question] = []
    var refused: [String] = []
    /// Asked questions the engine took.
    var taken = 0
    var signals: Set<Int32> = []
  }

  private let news = Mutex(News())
  /// Set while a wake-up byte is in the pipe, so that a burst of news writes one.
  private let awake = Atomic(false)
  let wakeFD: Int32
  private let writeFD: Int32

  init() {
    var fds: [Int32] = [0, 0]
    if pipe(&fds) != 0 { fatalError("no pipe for the UI's wake-ups: errno \(errno)") }
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    wakeFD = fds[0]
    writeFD = fds[1]
  }

  deinit {
    close(wakeFD)
    close(writeFD)
  }

  func post(state: QnAState, changes: [QnAChange]) {
    let answered = changes.compactMap { change -> Question? in
      if case .answered(let question) = change { question } else { nil }
    }
    news.withLock {
      $0.state = state
      $0.answers += answered.count
      $0.answered += answered
    }
    wake()
  }

  func post(refused text: String) {
    news.withLock { $0.refused.append(text) }
    wake()
  }

  func postTaken() {
    news.withLock { $0.taken += 1 }
    wake()
  }

  func post(signal: Int32) {
    news.withLock { _ = $0.signals.insert(signal) }
    wake()
  }

  /// Everything posted since the last call (on the UI thread, after the pipe was readable).
  package func take() -> News {
    var byte: UInt8 = 0
    awake.store(false, ordering: .sequentiallyConsistent)
    while read(wakeFD, &byte, 1) > 0 {}
    return news.withLock { news in
      defer { news = News() }
      return news
    }
  }

  private func wake() {
    guard !awake.exchange(true, ordering: .sequentiallyConsistent) else { return }
    var byte: UInt8 = 1
    _ = write(writeFD, &byte, 1)
  }
}
