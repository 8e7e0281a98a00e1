import Foundation
import QnAStore

/// What this instance writes of its present attendees next (`HeadCount`): only what changed
/// since its last write, so a crowd coming and going costs one write a tick, not one per
/// socket. Every row again (a complete write) every `renewal`, so that its rows do not lapse
/// while it lives, and after a write that failed: the database may or may not have it.
package struct PresenceWrites: Sendable {
  package let instance: UUID
  /// Seconds between complete writes, and how long a row counts after it is written.
  package let renewal: Double
  package let lifetime: Double
  /// What the database has of this instance's, as far as it knows (after a failure, all it
  /// may have).
  private var written: Set<PresentAttendee> = []
  /// When every row was last written; `nil` before the first write.
  private var renewedAt: Double?
  /// The last write failed.
  package private(set) var isFailing = false

  package init(instance: UUID, renewal: Duration, lifetime: Duration) {
    self.instance = instance
    self.renewal = renewal / .seconds(1)
    self.lifetime = lifetime / .seconds(1)
  }

  /// The write that brings the database to `present` as of `now` (seconds since 1970).
  package func next(present: Set<PresentAttendee>, now: Double) -> PresenceChanges {
    let due = isFailing || renewedAt.map { now - $0 >= renewal } ?? false
    // Nothing here, nothing written: nothing to renew.
    let complete = due && !(present.isEmpty && written.isEmpty)
    return PresenceChanges(
      instance: instance, now: now, expiresAt: now + lifetime,
      arrived: Array(complete ? present : present.subtracting(written)),
      left: complete ? [] : Array(written.subtracting(present)), complete: complete)
  }

  /// The database has `changes`.
  package mutating func succeeded(_ changes: PresenceChanges) {
    if changes.complete {
      written = Set(changes.arrived)
      renewedAt = changes.now
    } else {
      written.formUnion(changes.arrived)
      written.subtract(changes.left)
      // The first rows ever written are as fresh as a complete write's.
      if renewedAt == nil, !changes.arrived.isEmpty { renewedAt = changes.now }
    }
    isFailing = false
  }

  /// `changes` may or may not be in the database: the next write is complete.
  package mutating func failed(_ changes: PresenceChanges) {
    written.formUnion(changes.arrived)
    isFailing = true
  }
}
