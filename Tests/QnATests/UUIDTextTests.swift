import Foundation
import QnA
import Testing

/// `UUID(text:)` reads what `UUID(uuidString:)` reads, and refuses what it refuses, but for
/// the space Foundation's scanning skips before a group of digits; `text` writes what
/// `uuidString` writes.
@Suite("UUIDs read from their text")
struct UUIDTextTests {
  @Test func aUUIDsTextInEitherCaseIsReadAsFoundationReadsIt() {
    for _ in 0..<1000 {
      let uuid = UUID()
      for text in [uuid.uuidString, uuid.uuidString.lowercased()] {
        #expect(UUID(text: text) == uuid)
        #expect(UUID(text: text) == UUID(uuidString: text))
      }
    }
  }

  @Test func anythingElseIsRefusedAsFoundationRefusesIt() {
    let text = UUID().uuidString
    let dashless: String = text.replacingOccurrences(of: "-", with: "")
    let braced: String = "{" + text.dropFirst().dropLast() + "}"
    let plus: String = text.prefix(8) + "+" + text.dropFirst(9)
    let notHex: String = "G" + text.dropFirst()
    let accent: String = text.prefix(35) + "é"
    let spaced: String = " " + text.dropLast()
    let zeroed: String = text.replacingOccurrences(of: "-", with: "0")
    let wrong: [String] = [
      "", String(text.dropLast()), text + "0", dashless, braced, plus, notHex, accent, zeroed,
    ]
    for candidate in wrong {
      #expect(UUID(text: candidate) == nil, "\(candidate)")
      #expect(UUID(uuidString: candidate) == nil, "Foundation refuses \(candidate) too")
    }
    // Foundation reads this one as the UUID with a last group one digit short; it is not a
    // UUID's text.
    #expect(UUID(text: spaced) == nil)
  }

  @Test func aUUIDsTextIsWhatFoundationWrites() {
    let edges = [
      UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
      UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
      UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
    ]
    for uuid in edges + (0..<1000).map({ _ in UUID() }) {
      #expect(uuid.text == uuid.uuidString)
      #expect(UUID(text: uuid.text) == uuid)
    }
  }
}
