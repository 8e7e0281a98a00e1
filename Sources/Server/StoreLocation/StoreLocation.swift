import Logging
import QnAStore
import QnAStorePostgres
import QnAStoreSQLite

/// Where `--db` points: a `postgres://` URL (several instances on one database) or an SQLite
/// path (`:memory:` included). Only this module knows both drivers, so the store, the room
/// and the app never depend on a database library.
public enum StoreLocation {
  /// The store at `location`. SQLite's schema is migrated on opening; PostgreSQL's by
  /// `prepare()`, once its connections are up.
  public static func open(
    _ location: String, options: StoreOptions = StoreOptions(),
    timing: @escaping StoreTiming = { _ in }, logger: Logger = Logger(label: "qna-store")
  ) throws(StoreError) -> QuestionStore {
    if isPostgres(location) {
      let driver = try PostgresDriver(
        url: PostgresURL(location), options: options, logger: logger)
      return QuestionStore(
        driver: driver, timing: timing,
        commits: StoreCommits(driver: driver, options: options))
    }
    let driver = try SQLiteDriver(path: location)
    return QuestionStore(
      driver: driver, timing: timing,
      commits: StoreCommits(driver: driver, options: options))
  }

  /// `--db`'s default: an SQLite file in the working directory.
  public static let defaultPath = "qna.sqlite"

  /// Throws, in words that never echo a password, when `location` is a PostgreSQL URL that
  /// cannot be used: a mistake found before the server starts.
  public static func validate(_ location: String) throws(StoreError) {
    if isPostgres(location) { _ = try PostgresURL(location) }
  }

  /// Whether `location` names a PostgreSQL database rather than an SQLite file.
  public static func isPostgres(_ location: String) -> Bool { PostgresURL.isPostgres(location) }
}
