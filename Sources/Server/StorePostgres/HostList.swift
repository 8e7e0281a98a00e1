import Logging
import PostgresNIO
import Synchronization

/// The servers a multi-host `--db` names, tried in order for each new connection, as libpq
/// does; with `target_session_attrs=read-write`, a server that takes no writes (a standby, or
/// one with `default_transaction_read_only`) is passed over. After a failover the old primary
/// refuses or is gone and the promoted standby now takes writes: new connections find it.
struct HostList: Sendable {
  let hosts: [PostgresConnection.Configuration]
  let target: PostgresURL.Target
  let logger: Logger

  /// Connection numbers for postgres-nio's logs, across the process.
  private static let numbers = Atomic<Int>(0)

  struct ReadOnly: Error, CustomStringConvertible {
    let host: String
    var description: String { "\(host) takes no writes (a standby?)" }
  }

  func connect() async throws -> PostgresConnection {
    var last: (any Error)?
    for configuration in hosts {
      do {
        let connection = try await PostgresConnection.connect(
          configuration: configuration,
          id: Self.numbers.add(1, ordering: .relaxed).newValue, logger: logger)
        guard target == .readWrite else { return connection }
        if try await takesWrites(connection) { return connection }
        ConnectionPool.close(connection)
        last = ReadOnly(host: configuration.host ?? "?")
      } catch {
        // A call given up on stops here, rather than trying the next host.
        if Task.isCancelled { throw error }
        last = error
      }
    }
    throw last ?? ReadOnly(host: "?")
  }

  /// libpq's read-write check: `SHOW transaction_read_only` answers `off`. It has the
  /// connect timeout too: postgres-nio's query would wait for ever on a link that stalled
  /// after the login, and the pool's slot with it.
  private func takesWrites(_ connection: PostgresConnection) async throws -> Bool {
    do {
      let check: @Sendable () async throws -> Bool = { [logger] in
        for try await value in try await connection.query(
          "SHOW transaction_read_only", logger: logger
        ).decode(String.self) {
          return value == "off"
        }
        return false
      }
      return try await Deadline.run(
        within: PostgresDriver.connectTimeout, onExpiry: { ConnectionPool.close(connection) },
        check)
    } catch {
      ConnectionPool.close(connection)
      throw error
    }
  }
}
