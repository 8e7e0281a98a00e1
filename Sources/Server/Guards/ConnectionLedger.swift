import DequeModule
import NIOCore
import Synchronization

/// Every TCP connection the server holds, counted atomically as it is accepted: attendees'
/// WebSockets, and HTTP connections (the presenter's browser, tools, and whatever an
/// attacker opens and leaves idle or half-sent).
///
/// Past `maxOpen` (kept under the open-file limit) the oldest HTTP connection is closed to
/// make room (a browser opens another when it needs one), so a flood of idle connections
/// cannot keep the presenter or a new attendee out; with none left, the newcomer is refused.
/// One address may hold at most `maxHTTPConnectionsPerAddress` HTTP connections, except loopback
/// and the trusted proxies, behind which every attendee shares an address. An attendee's
/// WebSocket, once upgraded, is neither evicted nor capped here (the WebSocket limit is).
package final class ConnectionLedger: Sendable {
  package struct Limits: Sendable {
    package var maxOpen: Int
    package var maxHTTPConnectionsPerAddress: Int
    /// Addresses exempt from the per-address cap.
    package var exempt: @Sendable (String) -> Bool

    package init(
      maxOpen: Int, maxHTTPConnectionsPerAddress: Int,
      exempt: @escaping @Sendable (String) -> Bool
    ) {
      self.maxOpen = maxOpen
      self.maxHTTPConnectionsPerAddress = maxHTTPConnectionsPerAddress
      self.exempt = exempt
    }
  }

  package enum Admission {
    case admitted
    case refused(String)
  }

  private struct State {
    package var open = 0
    package var httpByAddress: [String: Int] = [:]
    /// HTTP connections, oldest first (some may have upgraded or left since: checked).
    package var httpOrder: Deque<ObjectIdentifier> = []
    package var http: [ObjectIdentifier: (channel: any Channel, address: String)] = [:]
  }

  package let limits: Limits
  private let state = Mutex(State())

  package init(limits: Limits) {
    self.limits = limits
  }

  package var openCount: Int { state.withLock { $0.open } }

  package func admit(_ id: ObjectIdentifier, channel: any Channel, address: String) -> Admission {
    let (admission, evicted) = state.withLock { state -> (Admission, (any Channel)?) in
      if !limits.exempt(address),
        state.httpByAddress[address, default: 0] >= limits.maxHTTPConnectionsPerAddress
      {
        return (.refused("\(address) holds too many HTTP connections"), nil)
      }
      var evicted: (any Channel)?
      if state.open >= limits.maxOpen {
        guard let oldest = Self.takeOldestHTTP(&state) else {
          return (.refused("\(limits.maxOpen) connections open"), nil)
        }
        evicted = oldest
      }
      state.open += 1
      state.httpByAddress[address, default: 0] += 1
      state.http[id] = (channel, address)
      state.httpOrder.append(id)
      return (.admitted, evicted)
    }
    // Closed outside the lock: its `closed` comes back here.
    evicted?.close(promise: nil)
    return admission
  }

  /// The connection became an attendee's WebSocket: no longer evictable or capped here.
  package func upgraded(_ id: ObjectIdentifier) {
    state.withLock { state in _ = Self.removeHTTP(id, &state) }
  }

  package func closed(_ id: ObjectIdentifier) {
    state.withLock { state in
      _ = Self.removeHTTP(id, &state)
      state.open -= 1
    }
  }

  private static func takeOldestHTTP(_ state: inout State) -> (any Channel)? {
    while let oldest = state.httpOrder.popFirst() {
      if let entry = removeHTTP(oldest, &state) { return entry.channel }
    }
    return nil
  }

  private static func removeHTTP(_ id: ObjectIdentifier, _ state: inout State) -> (
    channel: any Channel, address: String
  )? {
    guard let entry = state.http.removeValue(forKey: id) else { return nil }
    let left = state.httpByAddress[entry.address, default: 1] - 1
    state.httpByAddress[entry.address] = left > 0 ? left : nil
    // Keep the order queue from growing with connections that left long ago.
    if state.httpOrder.count > 2 * state.http.count + 64 {
      let http = state.http
      state.httpOrder.removeAll { http[$0] == nil }
    }
    return entry
  }
}
