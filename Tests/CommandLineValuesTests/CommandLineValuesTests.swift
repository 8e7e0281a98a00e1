import CommandLineValues
import Testing

@Suite("Durations and sizes on the command line")
struct CommandLineValuesTests {
  @Test func plainSecondsAndUnits() throws {
    #expect(try DurationValue.parse("1") == .seconds(1))
    #expect(try DurationValue.parse("0.5") == .milliseconds(500))
    #expect(try DurationValue.parse("500ms") == .milliseconds(500))
    #expect(try DurationValue.parse("2s") == .seconds(2))
    #expect(try DurationValue.parse("1m") == .seconds(60))
    #expect(try DurationValue.parse("1.5h") == .seconds(5400))
    #expect(try DurationValue.parse("0") == .zero)
  }

  @Test func refusesWhatIsNotADuration() {
    for text in ["", "s", "-1", "+1", "1 s", "1x", "abc", "nan", "inf", "1e30"] {
      #expect(throws: ValueError.invalidDuration(text)) { try DurationValue.parse(text) }
    }
  }

  @Test func formatsShortly() {
    #expect(DurationValue.format(.seconds(2)) == "2s")
    #expect(DurationValue.format(.milliseconds(250)) == "250ms")
    #expect(DurationValue.format(.milliseconds(1500)) == "1.5s")
  }

  @Test func sizesArePlainBytes() throws {
    #expect(try SizeValue.parse("16777216") == 16_777_216)
    for text in ["0", "-5", "1k", "", "+3"] {
      #expect(throws: ValueError.invalidSize(text)) { try SizeValue.parse(text) }
    }
  }
}
