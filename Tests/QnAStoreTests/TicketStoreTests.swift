import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Extension `tickets` in the store, on SQLite and PostgreSQL: issued once in clear, kept as
/// digests, bound once (whoever binds first, across instances), gone with their session.
@Suite("The store's tickets, on SQLite and PostgreSQL", .serialized)
struct TicketStoreTests {
  @Test(arguments: StoreKind.allCases)
  func aTicketIsIssuedOnceAndBindsOneAttendee(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    var random = SplitMix64(seed: 46)
    let session = try await stores[0].directory.createSession(
      title: "T", at: Date(), using: &random)
    let code = session.session.code
    let id = try #require(session.session.id)
    let (one, two) = (stores[0].session(id), stores[1].session(id))
    #expect(try await one.admitsByTicket() == false)
    let tickets = try await one.issueTickets(5, at: Date(), using: &random)
    #expect(tickets.count == 5 && Set(tickets).count == 5)
    #expect(tickets.allSatisfy { Ticket.canonical($0) == $0 })
    #expect(try await two.admitsByTicket() == true)
    // Issued in batches of rows (600: two of 256, the rest in halving sizes), each kept.
    let more = try await one.issueTickets(600, at: Date(), using: &random)
    let issued = try await two.ticketCounts()
    #expect(issued.issued == 605 && issued.used == 0)
    for ticket in [more[0], more[255], more[256], more[511], more[512], more[599]] {
      #expect(try await two.ticket(ticket) == .unused)
    }
    // The default room never admits by ticket, and has none to issue.
    #expect(try await stores[0].admitsByTicket() == false)
    await #expect(throws: StoreError.self) {
      _ = try await stores[0].issueTickets(1, at: Date(), using: &random)
    }
    for count in [0, QuestionStore.maxTicketsPerIssue + 1] {
      await #expect(throws: StoreError.self) {
        _ = try await one.issueTickets(count, at: Date(), using: &random)
      }
    }
    #expect(try await one.ticket("ABCDEFGHJKLMNPQR") == .unknown)
    #expect(try await one.ticket(tickets[0]) == .unused)
    // Two instances bind one ticket at once, each for the attendee it just issued: one wins,
    // and both come away with the winner.
    let (alice, bob) = (uuid(1, group: 0x71), uuid(2, group: 0x71))
    for (store, attendee) in [(one, alice), (two, bob)] {
      _ = try await store.claim(
        attendee: attendee, credential: nil, mint: UUID(), name: nil, at: Date())
    }
    async let first = one.bind(tickets[0], to: alice)
    async let second = two.bind(tickets[0], to: bob)
    let (a, b) = try await (first, second)
    #expect(a == b)
    guard case .bound(let winner, let credential) = a else {
      Issue.record("not bound: \(a)")
      return
    }
    #expect([alice, bob].contains(winner) && credential != nil)
    #expect(try await one.ticket(tickets[0]) == a)
    let counts = try await two.ticketCounts()
    #expect(counts.issued == 605 && counts.used == 1)
    // Gone with their session.
    _ = try await one.directory.deleteSession(code: code)
    #expect(try await one.ticket(tickets[1]) == .unknown)
    let left = try await one.ticketCounts()
    #expect(left.issued == 0 && left.used == 0)
  }
}
