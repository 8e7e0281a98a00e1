import DequeModule
import PostgresNIO
import Synchronization

/// The store's own pool of PostgreSQL connections, at most `size` of them. Its slots are
/// its own to give back: a call abandoned at its time limit has its connection closed and
/// its slot freed at once, whatever became of the task that held it. (postgres-nio's pool
/// frees a slot only when the task that leased it ends, and a query on a connection that
/// broke at the wrong moment can wait for ever: the fault proxy's resets showed it.)
package final class ConnectionPool: Sendable {
  package typealias Connect = @Sendable () async throws -> PostgresConnection

  package let size: Int
  /// An idle connection older than this is closed rather than used: a NAT or a firewall
  /// may have forgotten it, and a query on it would wait for the call's limit.
  package static let idleLimit: Duration = .seconds(30)

  private let connect: Connect
  private let uptime: @Sendable () -> ContinuousClock.Instant
  private let state = Mutex(State())
  /// Who holds each lent connection and wants to hear if it closes (`watch`): one callback
  /// per connection, set at its opening, rather than one per call on its close future.
  private let holders = Mutex<[ObjectIdentifier: @Sendable () -> Void]>([:])

  private struct State {
    var idle: [(connection: PostgresConnection, since: ContinuousClock.Instant)] = []
    /// Connections open or being opened, idle or lent.
    var open = 0
    var lent = 0
    var waiters: Deque<Waiter> = []
    var nextWaiter = 0
    var closed = false
  }

  private struct Waiter {
    let id: Int
    let continuation: CheckedContinuation<PostgresConnection, any Error>
  }

  package struct Closed: Error {}

  package init(
    size: Int, uptime: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
    connect: @escaping Connect
  ) {
    self.size = size
    self.uptime = uptime
    self.connect = connect
  }

  /// Connections lent out, and calls waiting for one.
  package var usage: (lent: Int, waiting: Int) {
    state.withLock { ($0.lent, $0.waiters.count) }
  }

  /// A connection for the caller alone, until it calls `giveBack`.
  package func lease() async throws -> PostgresConnection {
    enum Next {
      case use(PostgresConnection)
      case open
      case wait
      case closed
    }
    var stale: [PostgresConnection] = []
    defer { for connection in stale { Self.close(connection) } }
    let now = uptime()
    let next = state.withLock { state -> Next in
      if state.closed { return .closed }
      while let (connection, since) = state.idle.popLast() {
        if connection.isClosed || now - since > Self.idleLimit {
          stale.append(connection)
          state.open -= 1
          continue
        }
        state.lent += 1
        return .use(connection)
      }
      if state.open < size {
        state.open += 1
        state.lent += 1
        return .open
      }
      return .wait
    }
    switch next {
    case .use(let connection): return connection
    case .closed: throw Closed()
    case .open: return try await opened()
    case .wait: return try await waitForOne()
    }
  }

  /// Returns a connection lent by `lease`: kept for the next call when it can be (`reusable`,
  /// and still open), else closed and its slot freed.
  package func giveBack(_ connection: PostgresConnection, reusable: Bool) {
    enum Next {
      case handedOn(Waiter)
      case kept
      case openFor(Waiter)
      case freed
    }
    var keep = reusable && !connection.isClosed
    let next = state.withLock { state -> Next in
      state.lent -= 1
      // A closed pool keeps nothing: what comes back after `close` is closed too.
      keep = keep && !state.closed
      if keep {
        if let waiter = state.waiters.popFirst() {
          state.lent += 1
          return .handedOn(waiter)
        }
        state.idle.append((connection, uptime()))
        return .kept
      }
      state.open -= 1
      if !state.closed, let waiter = state.waiters.popFirst() {
        state.open += 1
        state.lent += 1
        return .openFor(waiter)
      }
      return .freed
    }
    if !keep { Self.close(connection) }
    switch next {
    case .handedOn(let waiter): waiter.continuation.resume(returning: connection)
    case .openFor(let waiter):
      Task { waiter.continuation.resume(with: await Result(catching: { try await self.opened() })) }
    case .kept, .freed: break
    }
  }

  /// Closes the idle connections and refuses new leases; lent ones close as they come back.
  package func close() {
    let (idle, waiters) = state.withLock { state in
      state.closed = true
      defer {
        state.open -= state.idle.count
        state.idle = []
        state.waiters = []
      }
      return (state.idle.map(\.connection), Array(state.waiters))
    }
    for connection in idle { Self.close(connection) }
    for waiter in waiters { waiter.continuation.resume(throwing: Closed()) }
  }

  /// Closes a connection in the background, keeping it until it is closed: postgres-nio
  /// insists that a connection be closed before it goes.
  package static func close(_ connection: PostgresConnection) {
    connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
  }

  /// Tells `handler` if `connection`, lent to its caller, closes before `unwatch`.
  package func watch(_ connection: PostgresConnection, _ handler: @escaping @Sendable () -> Void) {
    holders.withLock { $0[ObjectIdentifier(connection)] = handler }
  }

  package func unwatch(_ connection: PostgresConnection) {
    _ = holders.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
  }

  /// A new connection in a slot already counted; on failure the slot is freed.
  private func opened() async throws -> PostgresConnection {
    do {
      let connection = try await connect()
      let id = ObjectIdentifier(connection)
      connection.closeFuture.whenComplete { [weak self] _ in
        let holder = self?.holders.withLock { $0.removeValue(forKey: id) }
        holder?()
      }
      return connection
    } catch {
      let waiter = state.withLock { state -> Waiter? in
        state.open -= 1
        state.lent -= 1
        // Someone waiting gets the slot and tries for themselves.
        guard !state.closed, let waiter = state.waiters.popFirst() else { return nil }
        state.open += 1
        state.lent += 1
        return waiter
      }
      if let waiter {
        Task {
          waiter.continuation.resume(with: await Result(catching: { try await self.opened() }))
        }
      }
      throw error
    }
  }

  private func waitForOne() async throws -> PostgresConnection {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let queued = state.withLock { state -> Bool in
          guard !state.closed, !Task.isCancelled else { return false }
          state.waiters.append(Waiter(id: id, continuation: continuation))
          return true
        }
        if !queued { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index)
      }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
