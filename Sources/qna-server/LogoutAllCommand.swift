import ArgumentParser
import CommandLineValues
import Foundation
import QnAStore

/// `qna-server logout-all`: ends presenters' logins on a database, and so on every instance
/// on it (each reads the login on every request). Tokens stay as they are.
struct LogoutAllCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna-server logout-all"),
    abstract: "End every presenter login, the admin's and every session's; print how many.",
    discussion: """
      Works on the database of a running server, and so on every instance on it: a logged-in \
      browser gets the login form at its next request. Tokens still admit: to change a \
      session's, use `qna-server session rotate-token CODE`; to change the admin token, restart \
      the server with another (which ends the logins the old one made).
      """,
    version: ProjectVersion.current)

  @Option(help: "Only the logins of this session (its code, any case).") var session: String?
  @OptionGroup var database: SessionCommand.Database

  func run() async throws {
    let store = await database.open()
    var scope: SessionDirectory.LoginScope?
    var which = ""
    if let session {
      guard
        let found = try await SessionCommand.run({
          try await store.directory.session(code: session)
        }),
        let id = found.id
      else {
        SessionCommand.fail("there is no session \(session)", status: 1)
      }
      scope = .session(id)
      which = " of session \(found.code)"
    }
    let only = scope
    let ended = try await SessionCommand.run {
      try await store.directory.endLogins(scope: only, now: Date())
    }
    // What was done, for the operator's record.
    print("ended \(ended) \(ended == 1 ? "login" : "logins")\(which)")
  }
}
