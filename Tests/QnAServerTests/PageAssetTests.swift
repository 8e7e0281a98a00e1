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
    "/assets/presenter.css", "/assets/common.js", "/assets/room-state.js", "/assets/room-socket.js",
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

  /// With `Accept-Encoding: gzip` (every browser sends it), each asset comes compressed once
  /// for all, under an ETag of its own, and inflates to the very bytes sent uncompressed.
  @Test func aClientThatAcceptsGzipGetsTheSameFileCompressed() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let scratch = try TemporaryDirectory()
    for path in Self.paths {
      let plain = try await server.http("GET", path)
      #expect(
        plain.headers["content-encoding"] == nil && plain.headers["vary"] == "Accept-Encoding")
      let zipped = try await server.http("GET", path, headers: ["Accept-Encoding": "gzip, br"])
      #expect(zipped.status == 200 && zipped.headers["content-encoding"] == "gzip", "\(path)")
      #expect(zipped.headers["vary"] == "Accept-Encoding")
      let tag = try #require(zipped.headers["etag"])
      #expect(
        tag != plain.headers["etag"] && tag.count == 34, "another representation, another tag")
      // Text compresses to under half once there is some of it (a small file's header counts).
      let bound = plain.bodyBytes.count / (plain.bodyBytes.count > 4096 ? 2 : 1)
      #expect(zipped.bodyBytes.count < bound, "\(path)")
      let file = scratch.url.appendingPathComponent("asset.gz")
      try Data(zipped.bodyBytes).write(to: file)
      let inflated = try ProgramRun("/bin/gzip", ["-dc", file.path])
      #expect(inflated.status == 0 && inflated.output == plain.body, "\(path)")
      let again = try await server.http(
        "GET", path, headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
      #expect(again.status == 304 && again.headers["etag"] == tag, "\(path)")
      // The other representation's tag does not match: the client's copy is not this one.
      let other = try await server.http(
        "GET", path, headers: ["Accept-Encoding": "gzip", "If-None-Match": plain.headers["etag"]!])
      #expect(other.status == 200 && other.bodyBytes == zipped.bodyBytes, "\(path)")
      let refused = try await server.http("GET", path, headers: ["Accept-Encoding": "gzip;q=0"])
      #expect(refused.headers["content-encoding"] == nil && refused.body == plain.body)
    }
  }

  @Test func acceptEncodingIsReadWithItsWeights() {
    for yes in [
      "gzip", "GZIP", "deflate, gzip;q=0.5", "x-gzip", "*", "br, * ; q=0.1", "gzip;q=1.0",
    ] {
      #expect(StaticAsset.acceptsGzip(yes), "\(yes)")
    }
    for no in ["", "identity", "br, deflate", "gzip;q=0", "*;q=0", "gzip;q=0, *", ",,;", "gzipped"]
    {
      #expect(!StaticAsset.acceptsGzip(no), "\(no)")
    }
  }

  /// A phone's first load of the attendee page, as a browser makes it (gzip accepted): the
  /// page with twenty long questions, its script and its style sheet, under 50 KB, in three
  /// requests (the script bundled with the modules it imports: it imports none as served).
  @Test func theFirstLoadOnThePhoneIsUnderFiftyKilobytes() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    for index in 0..<20 {
      let content = "Question \(index) " + String(repeating: "x", count: 100)
      let asked = try await server.http(
        "POST", "/room/ask", body: "content=\(content)&token=\(UUID().uuidString)",
        headers: ["Content-Type": "application/x-www-form-urlencoded"])
      #expect(asked.status == 303, "\(asked)")
    }
    let browser = ["Accept-Encoding": "gzip, deflate, br"]
    let page = try await server.http("GET", "/room/", headers: browser)
    #expect(page.body.components(separatedBy: "Question ").count > 20)
    var bytes = page.bodyBytes.count
    var plainBytes = page.bodyBytes.count
    // The style sheet, and room.js with every module it imports, as the browser follows them.
    var pending = ["/assets/room.css", "/assets/room.js"]
    var fetched: Set<String> = []
    while let path = pending.popLast() {
      guard fetched.insert(path).inserted else { continue }
      let plain = try await server.http("GET", path)
      #expect(plain.status == 200, "\(path)")
      plainBytes += plain.bodyBytes.count
      bytes += try await server.http("GET", path, headers: browser).bodyBytes.count
      pending += Self.imports(plain.body).map { "/assets/\($0)" }
    }
    #expect(fetched == ["/assets/room.css", "/assets/room.js"], "\(fetched)")
    print("first load: \(bytes) bytes as sent, \(plainBytes) uncompressed")
    #expect(bytes < 50_000, "\(bytes) bytes")
  }

  /// The modules a script imports from beside it (`import … from './NAME';`).
  static func imports(_ script: String) -> [String] {
    script.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("import "), let from = line.range(of: " from './") else { return nil }
      return line[from.upperBound...].split(separator: "'").first.map(String.init)
    }
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
