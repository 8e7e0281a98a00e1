import Foundation
import QnA
import QnAClient
import Testing

@Suite("Headless JSON lines")
struct HeadlessEventsTests {
  let token = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

  @Test func keysKeepTheirOrderAndValuesTheirTypes() {
    let line = JSONLine([
      "event": .string("x"), "n": .int(-3), "f": .number(0.25), "b": .bool(true), "z": .null,
    ])
    #expect(line.description == #"{"event":"x","n":-3,"f":0.25,"b":true,"z":null}"#)
  }

  @Test func hostileTextIsEscapedAndReadsBackUnchanged() throws {
    let samples = [
      "plain", "quote \" backslash \\ slash /", "\u{1B}[31mred\u{1B}[0m\u{07}", "line\nbreak\r\t",
      "\u{0}\u{1F}\u{7F}\u{85}\u{9F}", "sep\u{2028}\u{2029}", "ü 漢字 👩‍👩‍👧 e\u{301}", "",
      "exe.\u{202E}txt \u{2066}isolate\u{2069} zero\u{200B}width \u{FEFF}bom \u{200F}mark",
    ]
    for text in samples {
      let encoded = JSONLine(["event": .string(text)]).description
      #expect(!encoded.contains("\n") && !encoded.contains("\r") && !encoded.contains("\u{1B}"))
      let object = try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? [String: String]
      #expect(object?["event"] == text)
    }
    #expect(JSONLine(["t": .string("ü\u{1B}")]).description == "{\"t\":\"ü\\u001b\"}")
    // Bidi controls and invisible characters never reach stdout raw either; zero-width
    // joiners, which emoji need, do.
    let spoof = JSONLine(["t": .string("a\u{202E}b\u{200B}c\u{FEFF}")]).description
    #expect(spoof == "{\"t\":\"a\\u202eb\\u200bc\\ufeff\"}")
    #expect(JSONLine(["t": .string("👩‍👧")]).description.unicodeScalars.contains("\u{200D}"))
  }

  @Test func questionEventsCarryTokenContentAndServerFields() {
    let question = Question(
      id: token, serverID: token, content: "Q?", status: .unanswered,
      createdAt: Date(timeIntervalSinceReferenceDate: 785_000_000.123), sequence: 0)
    let line = HeadlessEvents.line(for: .created(question, message: "ok"))
    #expect(
      line.description
        == #"{"event":"created","token":"\#(token)","content":"Q?","id":"\#(token)","#
        + #""createdAt":"2025-11-16T15:33:20.123Z","message":"ok"}"#)
    let queued = Question(id: token, content: "Q?", status: .queued, sequence: 0)
    #expect(
      HeadlessEvents.line(for: .queued(queued)).description
        == #"{"event":"queued","token":"\#(token)","content":"Q?"}"#)
  }

  @Test func connectionEvents() {
    #expect(
      HeadlessEvents.line(
        for: .disconnected(reason: "gone", retry: .init(after: .milliseconds(1500), attempt: 2))
      ).description == #"{"event":"disconnected","reason":"gone","retryIn":1.5,"attempt":2}"#)
    #expect(
      HeadlessEvents.line(for: .disconnected(reason: "closed", retry: nil)).description
        == #"{"event":"disconnected","reason":"closed","retryIn":null,"attempt":null}"#)
    #expect(
      HeadlessEvents.line(for: .handshake(connectionID: token)).description
        == #"{"event":"handshake","connectionId":"\#(token)"}"#)
  }
}
