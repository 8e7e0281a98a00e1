import Foundation
import GRDB
import QnAStore

/// The tables of logins and wrong guesses in SQLite; what is done with them is written once
/// (`LoginSQL`).
extension SQLiteDriver {
  package static func addLoginTables(_ db: Database) throws {
    try db.create(table: "presenterLogin") { table in
      table.column("digest", .text).primaryKey()
      table.column("scope", .integer).notNull()
      table.column("expiresAt", .double).notNull()
    }
    try db.create(
      index: "presenterLogin_scope", on: "presenterLogin", columns: ["scope", "expiresAt"])
    try db.create(table: "wrongGuess") { table in
      table.column("key", .text).primaryKey()
      table.column("failures", .integer).notNull()
      table.column("nextTurn", .double).notNull()
      table.column("lastAt", .double).notNull()
    }
    try db.create(index: "wrongGuess_lastAt", on: "wrongGuess", columns: ["lastAt"])
  }

  /// Each login remembers the token that made it (`credential`, a digest): the logins made
  /// before cannot say which, so this step ends them (their presenters log in again).
  package static func addLoginCredentials(_ db: Database) throws {
    try db.execute(sql: "DELETE FROM presenterLogin")
    // A default for an older binary still writing here: '' matches no token's digest.
    try db.alter(table: "presenterLogin") { table in
      table.add(column: "credential", .text).notNull().defaults(to: "")
    }
  }
}
