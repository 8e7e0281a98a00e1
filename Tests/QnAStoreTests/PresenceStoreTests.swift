import Foundation
import QnAStore
import TestSupport
import Testing

/// The head count's rows (extension `audience`): each instance writes its own, every instance
/// counts them all, each attendee once; a killed instance's rows lapse, a stopped one's go.
@Suite("qna-server: the head count's rows, on SQLite and PostgreSQL", .serialized)
struct PresenceStoreTests {
  static let one = uuid(1, group: 0x9E)
  static let two = uuid(2, group: 0x9E)
  static let talk: Int64 = 0
  static let other: Int64 = 7

  static func present(_ number: Int, in session: Int64 = talk) -> PresentAttendee {
    PresentAttendee(session: session, attendee: uuid(number, group: 0x9F))
  }

  static func changes(
    _ instance: UUID, at now: Double, arrived: [PresentAttendee] = [],
    left: [PresentAttendee] = [], complete: Bool = false
  ) -> PresenceChanges {
    var changes = PresenceChanges(
      instance: instance, now: now, expiresAt: now + 90, arrived: arrived, left: left,
      complete: complete)
    // Whoever arrives joined since the last write (the head count also says those who came
    // and went between two writes).
    changes.seen = arrived
    return changes
  }

  @Test(arguments: StoreKind.allCases)
  func everyInstanceCountsEachAttendeeOnce(_ kind: StoreKind) async throws {
    // Two stores on one database: two instances of the server.
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let now = Date().timeIntervalSince1970
    // Attendee 1 on both instances (two tabs, behind two instances); 2 on one; 3 in another
    // session.
    _ = try await stores[0].presence(
      Self.changes(Self.one, at: now, arrived: [Self.present(1), Self.present(2)]),
      counting: [])
    let counts = try await stores[1].presence(
      Self.changes(
        Self.two, at: now, arrived: [Self.present(1), Self.present(3, in: Self.other)]),
      counting: [Self.talk, Self.other, 99])
    #expect(counts[Self.talk] == 2)
    #expect(counts[Self.other] == 1)
    #expect((counts[99] ?? 0) == 0)
    // Attendee 1 leaves instance one: still in the room through instance two.
    let afterLeaving = try await stores[0].presence(
      Self.changes(Self.one, at: now + 1, left: [Self.present(1)]), counting: [Self.talk])
    #expect(afterLeaving[Self.talk] == 2)
    // Instance two stops cleanly: its rows go at once.
    try await stores[1].endPresence(instance: Self.two)
    let afterStop = try await stores[0].presence(
      Self.changes(Self.one, at: now + 2), counting: [Self.talk, Self.other])
    #expect(afterStop[Self.talk] == 1)
    #expect((afterStop[Self.other] ?? 0) == 0)
  }

  @Test(arguments: StoreKind.allCases)
  func aKilledInstancesRowsLapseAndACompleteWriteReplacesItsOwn(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let now = Date().timeIntervalSince1970
    _ = try await stores[0].presence(
      Self.changes(Self.one, at: now, arrived: [Self.present(1), Self.present(2)]),
      counting: [])
    _ = try await stores[1].presence(
      Self.changes(Self.two, at: now, arrived: [Self.present(3)]), counting: [])
    // Instance two never writes again (killed); instance one, 60 s on, renews with every
    // attendee it has: 2 left meanwhile (its removal was lost with a failed write).
    let renewed = try await stores[0].presence(
      Self.changes(Self.one, at: now + 60, arrived: [Self.present(1)], complete: true),
      counting: [Self.talk])
    #expect(renewed[Self.talk] == 2, "1, and 3 until instance two's row lapses")
    // Past instance two's rows' expiry, only instance one's renewed row counts.
    let lapsed = try await stores[0].presence(
      Self.changes(Self.one, at: now + 91), counting: [Self.talk])
    #expect(lapsed[Self.talk] == 1)
  }

  /// A keynote's arrivals and departures in one write: written in batches of rows (700
  /// arrive, 300 leave: whole batches and the rest in halving sizes), each attendee counted
  /// once.
  @Test(arguments: StoreKind.allCases)
  func aCrowdArrivesAndLeavesInOneWrite(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let now = Date().timeIntervalSince1970
    let crowd = (1...700).map { Self.present($0) }
    let arrived = try await stores[0].presence(
      Self.changes(Self.one, at: now, arrived: crowd), counting: [Self.talk])
    #expect(arrived[Self.talk] == 700)
    let left = try await stores[1].presence(
      Self.changes(Self.one, at: now + 1, left: Array(crowd[100..<400])), counting: [Self.talk])
    #expect(left[Self.talk] == 400)
  }

  /// Each minute's attendance, for the session's report: the most present at once on every
  /// instance together, and the count the minute ended with.
  @Test(arguments: StoreKind.allCases)
  func attendanceIsKeptByTheMinuteAcrossInstances(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    // The start of a minute.
    let minute = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
    _ = try await stores[0].presence(
      Self.changes(Self.one, at: minute, arrived: [Self.present(1), Self.present(2)]),
      counting: [])
    _ = try await stores[1].presence(
      Self.changes(Self.two, at: minute + 10, arrived: [Self.present(3)]), counting: [])
    _ = try await stores[0].presence(
      Self.changes(Self.one, at: minute + 20, left: [Self.present(1)]), counting: [])
    // Another session's crowd is its own.
    _ = try await stores[1].presence(
      Self.changes(Self.two, at: minute + 30, arrived: [Self.present(9, in: Self.other)]),
      counting: [])
    _ = try await stores[1].presence(
      Self.changes(Self.two, at: minute + 70, arrived: [Self.present(4)]), counting: [])
    let attendance = try await stores[0].report().attendance
    #expect(
      attendance == [
        AttendanceMinute(start: Date(timeIntervalSince1970: minute), peak: 3, last: 2),
        AttendanceMinute(start: Date(timeIntervalSince1970: minute + 60), peak: 3, last: 3),
      ])
    let other = try await stores[0].session(Self.other).report().attendance
    #expect(other.map(\.peak) == [1])
    // Four attendees were ever in the talk's room, however often they came and went.
    _ = try await stores[0].presence(
      Self.changes(Self.one, at: minute + 80, arrived: [Self.present(1)]), counting: [])
    #expect(try await stores[1].report().attendees == 4)
  }
}
