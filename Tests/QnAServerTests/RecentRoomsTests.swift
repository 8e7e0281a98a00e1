import Foundation
import QnAServer
import Synchronization
import Testing

/// The pages' view of a room, read at most once a second, and once for a burst of requests
/// that come while it is being read (a script's burst as the second ends costs one read).
@Suite("The attendee pages' room, read once for a burst")
struct RecentRoomsTests {
  enum ReadFailed: Error { case once }

  @Test func aBurstWaitsForTheOneReadUnderWay() async throws {
    let recent = RecentRooms()
    let reads = Mutex(0)
    let read: @Sendable () async throws -> RecentRooms.Entry = {
      reads.withLock { $0 += 1 }
      try await Task.sleep(for: .milliseconds(50))
      return ([], nil, "banner", [])
    }
    let banners = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<50 {
        group.addTask { try await recent.entry("ROOM", now: .seconds(10), read: read).announcement }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(banners.count == 50 && banners.allSatisfy { $0 == "banner" })
    #expect(reads.withLock { $0 } == 1)
    // Kept for a second, then read again.
    _ = try await recent.entry("ROOM", now: .seconds(10.5), read: read)
    #expect(reads.withLock { $0 } == 1)
    _ = try await recent.entry("ROOM", now: .seconds(11.5), read: read)
    #expect(reads.withLock { $0 } == 2)
  }

  @Test func aFailedReadIsNotKept() async throws {
    let recent = RecentRooms()
    await #expect(throws: ReadFailed.self) {
      _ = try await recent.entry("ROOM", now: .seconds(1)) { throw ReadFailed.once }
    }
    let entry = try await recent.entry("ROOM", now: .seconds(1)) { ([], nil, "again", []) }
    #expect(entry.announcement == "again")
  }
}
