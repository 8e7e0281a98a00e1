import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Two clients sharing one state directory hold one attendee id and join at once with it
/// alone. Each must come away with the credential that proves the id: a new credential for
/// each would leave all but the last holding one that proves nothing, and their questions
/// someone else's after the next drop (issue: answers lost with two `qna` in one directory).
@Suite("qna-server: one id joined at once, on SQLite and PostgreSQL", .serialized)
struct SharedIdentityStoreTests {
  @Test(arguments: StoreKind.allCases)
  func joinsOfOneIdAtOnceAreAllIssuedTheSameCredential(_ kind: StoreKind) async throws {
    // Two stores on one database: two instances of the server (on SQLite, two handles).
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let ids = (0..<20).map { uuid($0, group: 0x5D) }
    // Eight claims of each id at once, half through each store, each with a mint of its own.
    let issued = try await withThrowingTaskGroup(of: (UUID, AttendeeClaim).self) { group in
      for id in ids {
        for copy in 0..<8 {
          group.addTask {
            let claim = try await stores[copy % 2].claim(
              attendee: id, credential: nil, mint: UUID(), name: nil, at: Date())
            return (id, claim)
          }
        }
      }
      var issued: [UUID: Set<UUID>] = [:]
      for try await (id, claim) in group {
        guard case .issued(let credential) = claim else {
          Issue.record("\(id) was answered \(claim)")
          continue
        }
        issued[id, default: []].insert(credential)
      }
      return issued
    }
    #expect(issued.count == ids.count && issued.values.allSatisfy { $0.count == 1 })
    // Whichever client proves it first, the others' credential proves it too.
    for id in ids {
      let credential = try #require(issued[id]?.first)
      for store in stores.all {
        let claim = try await store.claim(
          attendee: id, credential: credential, mint: nil, name: nil, at: Date())
        #expect(claim == .proved)
      }
    }
  }
}
