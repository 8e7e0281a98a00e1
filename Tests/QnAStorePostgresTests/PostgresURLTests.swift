import QnAStore
import QnAStorePostgres
import Testing

/// `--db postgres://…`: libpq's URL form, and what it refuses, never echoing a password.
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
  @Test func theFullFormAndItsDefaults() throws {
    let full = try PostgresURL("postgres://qna:s%40cret@db.internal:6543/talks?sslmode=require")
    #expect(full.user == "qna" && full.password == "s@cret")
    #expect(full.host == "db.internal" && full.port == 6543 && full.database == "talks")
    #expect(full.tls == .require)
    let short = try PostgresURL("postgresql://qna@127.0.0.1/qna")
    #expect(short.password == nil && short.port == 5432 && short.tls == .prefer)
    let ipv6 = try PostgresURL("postgres://qna@[::1]:5433/qna?sslmode=disable")
    #expect(ipv6.host == "::1" && ipv6.port == 5433 && ipv6.tls == .disable)
    #expect(try PostgresURL("postgres://q@h/d?sslmode=verify-full").tls == .verify)
    #expect(try PostgresURL("postgres://q@h/d?sslmode=allow").tls == .prefer)
  }

  /// Several hosts, tried in order, and which one a connection may settle on: libpq's
  /// spelling, so that the same URL works with psql.
  @Test func severalHostsAndTheTargetOfAConnection() throws {
    let pair = try PostgresURL(
      "postgres://qna@db1:5433,db2,[::1]:5434/qna?sslmode=verify-full&target_session_attrs=read-write"
    )
    #expect(pair.endpoints.map(\.host) == ["db1", "db2", "::1"])
    #expect(pair.endpoints.map(\.port) == [5433, 5432, 5434])
    #expect(pair.host == "db1" && pair.port == 5433 && pair.target == .readWrite)
    #expect(
      "\(pair)"
        == "postgres://qna@db1:5433,db2:5432,[::1]:5434/qna?sslmode=verify-full&target_session_attrs=read-write"
    )
    #expect(try PostgresURL("postgres://q@h/d?target_session_attrs=primary").target == .readWrite)
    #expect(try PostgresURL("postgres://q@h/d?target_session_attrs=any").target == .any)
    #expect(try PostgresURL("postgres://q@h/d").target == .any, "libpq's default")
    // One remote host is enough for TLS to be required and its weakness said.
    let mixed = try PostgresURL("postgres://qna@127.0.0.1,db.internal/qna")
    #expect(mixed.tls == .require && mixed.tlsWarning?.contains("db.internal") == true)
  }

  /// libpq defaults to `prefer`, which anyone on the path can downgrade: here that default
  /// holds for this machine only, any other host gets `require`, and the operator hears of
  /// any mode that does not check the server's certificate.
  @Test func withoutSslmodeARemoteDatabaseRequiresTLSAndWeakModesAreSaid() throws {
    let remote = try PostgresURL("postgres://qna@db.internal/qna")
    #expect(remote.tls == .require)
    #expect(remote.tlsWarning?.contains("not checked") == true)
    #expect(try PostgresURL("postgres://qna@localhost/qna").tlsWarning == nil)
    #expect(try PostgresURL("postgres://qna@[::1]/qna").tls == .prefer)
    let stripped = try PostgresURL("postgres://qna@10.0.0.5/qna?sslmode=prefer")
    #expect(stripped.tlsWarning?.contains("strip TLS") == true)
    #expect(try PostgresURL("postgres://qna@db/qna?sslmode=verify-full").tlsWarning == nil)
  }

  @Test(arguments: [
    "postgres://db.internal/qna",  // no user
    "postgres://qna@/qna",  // no host
    "postgres://qna@host",  // no database
    "postgres://qna@host/",  // no database
    "postgres://qna@host/a/b",  // a path, not a name
    "postgres://qna@host:99999/qna",  // no such port
    "postgres://qna@host/qna?sslmode=sometimes",
    "postgres://qna@host/qna?application_name=x",
    "postgres://qna:pw@host/qna?sslmode=bogus",
    "postgres://qna:pw@ho st/qna",
    "mysql://qna@host/qna",
    "postgres://qna:pw@h1,,h2/qna",  // an empty host
    "postgres://qna:pw@h1,h2:0/qna",
    "postgres://qna:pw@h/qna?target_session_attrs=standby",
  ])
  func anythingElseIsRefusedInWordsWithoutThePassword(_ text: String) {
    let error = #expect(throws: StoreError.self) { try PostgresURL(text) }
    let message = error.map { "\($0)" } ?? ""
    #expect(message.contains("expected postgres://USER"), "\(message)")
    #expect(!message.contains(":pw@"), "\(message)")
  }

  @Test func theDescriptionNeverShowsThePassword() throws {
    let url = try PostgresURL("postgres://qna:hunter2@db/qna")
    #expect(!"\(url)".contains("hunter2"))
    #expect("\(url)" == "postgres://qna:***@db:5432/qna?sslmode=require")
  }
}
