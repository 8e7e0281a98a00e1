import Foundation
import TestSupport
import Testing

/// Refusals as a person at the terminal meets them: a burst waits its turn on screen, a
/// final refusal stays until Ctrl-T asks it again or Ctrl-X gives it up.
@Suite("qna in a terminal: refusals", .serialized)
struct TerminalRefusalTests {
  typealias UI = TerminalUITests

  @Test func aBurstOverTheDefaultLimitShowsWaitingThenEveryQuestionIsStored() async throws {
    let (tmux, server, _) = try await UI.connectedClient()
    defer { server.stop() }
    // Past the default burst of 20, typed faster than anyone types.
    for number in 1...26 {
      try tmux.type("burst \(number)")
      try tmux.press("Enter")
    }
    try await tmux.waitFor("a question waiting its turn") { $0.contains(" Waiting ") }
    try await tmux.waitFor("all stored", seconds: 20) {
      $0.contains(" Unanswered  burst 26") && !$0.contains("Waiting") && !$0.contains("Queued")
    }
    let stored = try await server.questions().compactMap { $0["content"] as? String }
    #expect(stored.sorted() == (1...26).map { "burst \($0)" }.sorted())
    try tmux.press("C-c")
    try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
  }

  @Test func aFinalRefusalIsKeptRetriedWithCtrlTAndDiscardedWithCtrlX() async throws {
    let (tmux, strict, _) = try await UI.connectedClient(serverOptions: ["--reject", "spam"])
    try tmux.type("buy spam")
    try tmux.press("Enter")
    try tmux.type("more spam")
    try tmux.press("Enter")
    try await tmux.waitFor("both refused") {
      $0.contains(" Failed      buy spam") && $0.contains(" Failed      more spam")
    }
    try tmux.press("C-c")
    try await tmux.waitFor("asked first") {
      $0.contains("Quit with 2 questions not sent (2 refused)? y/n")
    }
    try tmux.press("n")

    // The server changes its mind; Ctrl-T asks the last refused one again.
    let port = strict.port
    strict.stop()
    let lenient = try await QnAServerProcess(UI.serverArguments(port: port, database: ":memory:"))
    defer { lenient.stop() }
    try await tmux.waitFor("connected again", seconds: 20) { $0.contains("● connected") }
    try tmux.press("C-t")
    try await tmux.waitFor("retried and stored") { $0.contains(" Unanswered  more spam") }
    try tmux.press("C-x")
    try await tmux.waitFor("discarded") { !$0.contains("buy spam") }
    #expect(try await lenient.questions().compactMap { $0["content"] as? String } == ["more spam"])
    // Nothing is pending now: quitting does not ask.
    try tmux.press("C-c")
    let screen = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    #expect(screen.contains("EXIT=0"))
  }
}
