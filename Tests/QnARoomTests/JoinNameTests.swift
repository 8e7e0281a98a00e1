import QnA
import QnARoom
import Testing

/// A join's name as presenters see it beside questions: one short line.
@Suite("A join's name")
struct JoinNameTests {
  @Test func controlsAndOverloadedCharactersAreDroppedAndTheNameIsCut() {
    #expect(RoomJoins.name("Zo\u{0}ë\n\u{1B}[31m") == "Zoë[31m")
    #expect(RoomJoins.name("e" + String(repeating: "\u{301}", count: 40) + "va") == "va")
    #expect(RoomJoins.name(String(repeating: "x", count: 100))?.count == RoomJoins.maxNameLength)
    #expect(RoomJoins.name(" \u{0}\t") == nil)
    #expect(RoomJoins.name(nil) == nil)
  }
}
