import ArgumentParser
import CommandLineValues
import Foundation
import QRCode
import QnAServer
import QnAStore
import QnAStoreLocation

/// `qna-server session …`: a talk's Q&A on the server's database, which may be in use by a
/// running server (the server reads sessions from it on every lookup: no restart).
struct SessionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna-server session"),
    abstract: "Create, list, close, reopen and delete sessions (one per talk, with a join code).",
    discussion: """
      Works on the database of a running server: a session created here is usable at once. \
      Attendees join with `qna join CODE`; the presenter opens `qna present CODE` with the \
      printed token, or the page /s/CODE/.
      """,
    version: ProjectVersion.current,
    subcommands: [
      Create.self, List.self, Close.self, Reopen.self, Delete.self, RotateToken.self,
      Tickets.self,
    ])

  struct Database: ParsableArguments {
    @Option(
      help:
        "SQLite database file or postgres:// URL (default \(StoreLocation.defaultPath)).")
    var db: String?

    func open(creating: Bool = false) async -> QuestionStore {
      let path = db ?? StoreLocation.defaultPath
      guard
        creating || StoreLocation.isPostgres(path) || FileManager.default.fileExists(atPath: path)
      else {
        SessionCommand.fail("no database at \(path)", status: 1)
      }
      do {
        let store = try StoreLocation.open(path)
        try await store.prepare()
        return store
      } catch {
        SessionCommand.fail("\(error)", status: 1)
      }
    }
  }

  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Create a session; print its code, presenter token and join address, one per line.",
      discussion: """
        On a terminal the join address's QR code follows, for a phone's camera (it never \
        holds the token).
        """)
    @Argument(help: "The talk's title, shown to attendees.") var title: String
    @Option(
      help: """
        Where people reach the server, as its --public-url (default \(Self.defaultURL), \
        where qna-server listens by default).
        """)
    var publicURL: String?
    @Option(
      help: """
        An idempotency key: running the command again with it (after a timeout, say) prints \
        the session it created instead of making another (default: a new one each run, kept \
        across this run's own retries).
        """)
    var idempotencyKey: String?
    @OptionGroup var database: Database

    static let defaultURL = "http://127.0.0.1:8080"

    /// Creates the session, trying again under the same key when the database failed: a try
    /// that committed but did not answer is found, not made twice.
    static func create(
      title: String, key: String, in store: QuestionStore,
      using random: inout some RandomNumberGenerator
    ) async throws(StoreError) -> SessionRecord {
      var attempt = 1
      while true {
        do {
          return try await store.directory.createSession(
            title: title, at: Date(), requestToken: key, using: &random
          ).session
        } catch .unavailable(let reason) where attempt < retries {
          FileHandle.standardError.write(Data("qna-server: \(reason); trying again\n".utf8))
          attempt += 1
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
    static let retries = 3

    func run() async throws {
      guard let title = SessionDirectory.validTitle(self.title) else {
        throw ValidationError(SessionDirectory.titleRule)
      }
      guard let origin = ServerConfiguration.validPublicURL(publicURL ?? Self.defaultURL) else {
        throw ValidationError(
          "--public-url '\(publicURL ?? "")' is not http(s)://HOST[:PORT] (no path, query or fragment)"
        )
      }
      guard let key = SessionDirectory.validRequestToken(idempotencyKey ?? UUID().uuidString)
      else {
        throw ValidationError(
          "--idempotency-key must be 1–\(SessionDirectory.maxRequestTokenLength) printable ASCII characters"
        )
      }
      var random = SystemRandomNumberGenerator()
      let store = await database.open(creating: true)
      let session = try await SessionCommand.run {
        try await Self.create(title: title, key: key, in: store, using: &random)
      }
      guard session.title == title else {
        SessionCommand.fail(
          "this --idempotency-key created a session with another title (\(session.code))",
          status: 1)
      }
      print("code: \(session.code)")
      print("token: \(session.token)")
      let join = "\(origin)/s/\(session.code)/"
      print("join: \(join)")
      // Only for a person: a script reading the lines gets the three above.
      if isatty(STDOUT_FILENO) == 1, let code = try? QRCode(text: join) {
        print(code.terminalLines().joined(separator: "\n"))
      }
      FileHandle.standardError.write(
        Data("attendees: qna join \(session.code)   presenter: qna present \(session.code)\n".utf8))
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the sessions: code, state, questions, created, title.")
    @OptionGroup var database: Database

    func run() async throws {
      let sessions = try await SessionCommand.run { try await database.open().directory.sessions() }
      for summary in sessions {
        let session = summary.session
        let created = Date(timeIntervalSinceReferenceDate: session.createdAt)
          .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        print(
          [
            session.code, session.open ? "open" : "closed", String(summary.questions), created,
            // Written by whoever wrote the database: never a raw control on the terminal.
            PrintableText.escaped(session.title),
          ].joined(separator: "\t"))
      }
    }
  }

  struct Close: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Close a session: it takes no new questions and stays readable and exportable.")
    @Argument(help: "The session's code (any case).") var code: String
    @OptionGroup var database: Database

    func run() async throws {
      try await SessionCommand.setOpen(code, false, await database.open())
    }
  }

  struct Reopen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "open", abstract: "Open a closed session again.")
    @Argument(help: "The session's code (any case).") var code: String
    @OptionGroup var database: Database

    func run() async throws {
      try await SessionCommand.setOpen(code, true, await database.open())
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Delete a session and every question, vote and name in it.")
    @Argument(help: "The session's code (any case).") var code: String
    @OptionGroup var database: Database

    func run() async throws {
      let store = await database.open()
      guard
        try await SessionCommand.run({ try await store.directory.deleteSession(code: code) }) != nil
      else {
        SessionCommand.fail("there is no session \(code)", status: 1)
      }
      print("deleted \(code.uppercased())")
    }
  }

  struct RotateToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rotate-token",
      abstract: """
        Give a session a new presenter token and print it: the old one and the session's \
        logins stop working.
        """,
      discussion: """
        Prints `token: …`, once. A running server on the database refuses the old token and \
        the session's logins (whoever made them) at once, and closes the session's \
        presenter sockets: at once on PostgreSQL, at the next lookup of the session on SQLite.
        """)
    @Argument(help: "The session's code (any case).") var code: String
    @OptionGroup var database: Database

    func run() async throws {
      let store = await database.open()
      var random = SystemRandomNumberGenerator()
      guard
        let rotated = try await SessionCommand.run({
          try await store.directory.rotateToken(code: code, at: Date(), using: &random)
        })
      else {
        SessionCommand.fail("there is no session \(code)", status: 1)
      }
      print("token: \(rotated.session.token)")
      // What was done, for the operator's record (never the old token).
      let ended = rotated.endedLogins == 1 ? "1 login" : "\(rotated.endedLogins) logins"
      let done =
        "qna-server: session \(rotated.session.code) has a new presenter token; the old one "
        + "no longer admits, and \(ended) of the session ended\n"
      FileHandle.standardError.write(Data(done.utf8))
    }
  }

  static func setOpen(_ code: String, _ open: Bool, _ store: QuestionStore) async throws {
    guard
      let session = try await run({ try await store.directory.setSession(code: code, open: open) })
    else {
      fail("there is no session \(code)", status: 1)
    }
    print("\(session.code) \(open ? "open" : "closed")")
  }

  /// A store error is one line on stderr and exit 1.
  static func run<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as StoreError {
      fail("\(error)", status: 1)
    }
  }

  static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("qna-server: \(message)\n".utf8))
    Foundation.exit(status)
  }
}
