import DequeModule
import NIOCore
import Synchronization

/// Every TCP connection the server holds, counted atomically as it is accepted: attendees,
/// the presenter's browser, and connections that have not yet sent a whole request head
/// (which is all a slowloris attacker ever sends).
///
/// Past `maxOpen` (kept under the open-file limit) the oldest connection still without a
/// request head is closed to make room, so a flood of idle connections cannot keep the
/// presenter or a new attendee out; with none such, the newcomer is refused. One address may
/// hold at most `maxPendingPerAddress` connections without a head, except loopback and the
/// trusted proxies, behind which every attendee shares an address.
final class ConnectionLedger: Sendable {
  struct Limits: Sendable {
    var maxOpen: Int
    var maxPendingPerAddress: Int
    /// Addresses exempt from the per-address cap.
    var exempt: @Sendable (String) -> Bool
  }

  enum Admission {
    case admitted
    case refused(String)
  }

  private struct State {
    var open = 0
    var pendingByAddress: [String: Int] = [:]
    /// Connections without a head yet, oldest first (some may have left since: checked).
    var pendingOrder: Deque<ObjectIdentifier> = []
    var pending: [ObjectIdentifier: (channel: any Channel, address: String)] = [:]
  }

  let limits: Limits
  private let state = Mutex(State())

  init(limits: Limits) {
    self.limits = limits
  }

  var openCount: Int { state.withLock { $0.open } }

  func admit(_ id: ObjectIdentifier, channel: any Channel, address: String) -> Admission {
    let (admission, evicted) = state.withLock { state -> (Admission, (any Channel)?) in
      if !limits.exempt(address),
        state.pendingByAddress[address, default: 0] >= limits.maxPendingPerAddress
      {
        return (.refused("\(address) holds too many connections without a request"), nil)
      }
      var evicted: (any Channel)?
      if state.open >= limits.maxOpen {
        guard let oldest = Self.takeOldestPending(&state) else {
          return (.refused("\(limits.maxOpen) connections open"), nil)
        }
        evicted = oldest
      }
      state.open += 1
      state.pendingByAddress[address, default: 0] += 1
      state.pending[id] = (channel, address)
      state.pendingOrder.append(id)
      return (.admitted, evicted)
    }
    // Closed outside the lock: its `closed` comes back here.
    evicted?.close(promise: nil)
    return admission
  }

  /// The connection sent a whole request head: no longer pending.
  func headComplete(_ id: ObjectIdentifier) {
    state.withLock { state in _ = Self.removePending(id, &state) }
  }

  func closed(_ id: ObjectIdentifier) {
    state.withLock { state in
      _ = Self.removePending(id, &state)
      state.open -= 1
    }
  }

  private static func takeOldestPending(_ state: inout State) -> (any Channel)? {
    while let oldest = state.pendingOrder.popFirst() {
      if let entry = removePending(oldest, &state) { return entry.channel }
    }
    return nil
  }

  private static func removePending(_ id: ObjectIdentifier, _ state: inout State) -> (
    channel: any Channel, address: String
  )? {
    guard let entry = state.pending.removeValue(forKey: id) else { return nil }
    let left = state.pendingByAddress[entry.address, default: 1] - 1
    state.pendingByAddress[entry.address] = left > 0 ? left : nil
    // Keep the order queue from growing with connections that left long ago.
    if state.pendingOrder.count > 2 * state.pending.count + 64 {
      let pending = state.pending
      state.pendingOrder.removeAll { pending[$0] == nil }
    }
    return entry
  }
}
