import Foundation
import QnAServer
import TestSupport
import Testing

/// The pages' scripts and style sheets: a strong ETag from their bytes, revalidated on every
/// load (`no-cache`), and a 304 without a body while they have not changed.
@Suite("qna-server: the pages' assets are revalidated, not downloaded again")
struct PageAssetTests {
  static let paths = [
    "/assets/room.js", "/assets/room.css", "/assets/screen.js", "/assets/presenter.js",
    "/assets/presenter.css", "/assets/common.js",
  ]

  @Test func anAssetWithItsETagIsNotSentAgain() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    var tags: Set<String> = []
    for path in Self.paths {
      let first = try await server.http("GET", path)
      let eTag = try #require(first.headers["etag"], "\(path)")
      #expect(first.status == 200 && !first.body.isEmpty, "\(path)")
      #expect(first.headers["cache-control"] == "no-cache", "\(path)")
      // Strong (no W/), quoted, 128 bits of hex.
      #expect(eTag.hasPrefix("\"") && eTag.hasSuffix("\"") && eTag.count == 34, "\(eTag)")
      tags.insert(eTag)
      // Made once: the same for the same bytes.
      #expect(try await server.http("GET", path).headers["etag"] == eTag, "\(path)")
      for asked in [eTag, "W/\(eTag)", "\"other\", \(eTag)", "*"] {
        let again = try await server.http("GET", path, headers: ["If-None-Match": asked])
        #expect(again.status == 304 && again.body.isEmpty, "\(path), \(asked): \(again)")
        #expect(again.headers["etag"] == eTag && again.headers["cache-control"] == "no-cache")
      }
      for wrong in ["\"0123\"", String(eTag.dropLast()) + "0\"", "W/\"x\""] {
        let changed = try await server.http("GET", path, headers: ["If-None-Match": wrong])
        #expect(changed.status == 200 && changed.body == first.body, "\(path), \(wrong)")
      }
    }
    #expect(tags.count == Self.paths.count, "each file its own tag")
  }

  @Test func ifNoneMatchComparesWeaklyAndTakesLists() {
    let tag = "\"abc\""
    #expect(StaticAsset.matches("\"abc\"", tag))
    #expect(StaticAsset.matches(" W/\"abc\" ", tag))
    #expect(StaticAsset.matches("\"x\",\"abc\"", tag))
    #expect(StaticAsset.matches("*", tag))
    #expect(!StaticAsset.matches("\"abcd\"", tag))
    #expect(!StaticAsset.matches("abc", tag))
    #expect(!StaticAsset.matches("", tag))
  }
}
