import Foundation
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import Testing

/// `--db postgres://…`: libpq's URL form, TLS `prefer` unless told otherwise, and a clear
/// error (never showing the password) for anything else.
@Suite("qna-server on a PostgreSQL nobody answers")
struct UnreachableDatabaseTests {
  @Test func aServerOnAURLNobodyAnswersOnFailsToStartWithAClearError() async throws {
    // A port nobody listens on: the server's start (migrations) fails within the connect
    // timeout and says why, instead of serving without a database.
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.database = "postgres://qna@127.0.0.1:1/qna?sslmode=disable"
    let server = try QnAServerApp(configuration: configuration, logger: ServerUnderTest.quietLogger)
    await #expect(throws: StoreError.self) { try await server.run() }
  }
}
