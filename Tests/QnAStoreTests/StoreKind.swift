import Foundation
import QnAStore
import QnAStoreLocation
import TestSupport
import Testing

/// Which database a store test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite, postgres

  var testDescription: String { rawValue }

  /// `count` stores on one fresh database: SQLite in a file of its own, or a PostgreSQL
  /// database of its own on the test process's server, each store with its own connections.
  func stores(count: Int = 1) async throws -> Stores {
    switch self {
    case .sqlite:
      let directory = try TemporaryDirectory()
      let path = directory.path("store.sqlite")
      return Stores(
        all: try (0..<count).map { _ in try StoreLocation.open(path) }, keep: directory)
    case .postgres:
      let url = try PostgresProcess.shared().database()
      var stores: [QuestionStore] = []
      for _ in 0..<count {
        let store = try StoreLocation.open(url)
        try await store.prepare()
        stores.append(store)
      }
      return Stores(all: stores, keep: nil)
    }
  }
}

/// Stores on one database, and what must live as long as they do.
struct Stores: Sendable {
  let all: [QuestionStore]
  let keep: TemporaryDirectory?

  subscript(index: Int) -> QuestionStore { all[index] }

  func close() {
    let all = self.all
    Task { for store in all { await store.close() } }
  }
}
