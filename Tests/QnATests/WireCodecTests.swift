import Foundation
import QnA
import TestSupport
import Testing

@Suite("Wire messages decode and encode as docs/protocol.md has them")
struct WireCodecTests {
  let codec = WireCodec()
  let connection = UUID(uuidString: "1FC4044C-7E20-4332-9349-E4FDD69A10B3")!
  let question = UUID(uuidString: "7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6")!

  /// The fixtures verbatim from docs/protocol.md (the response's elided id filled in).
  enum Fixture {
    static let handshake = #"{"type":"handshake","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3"}"#
    static let newQuestion =
      #"{"type":"newQuestion","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3","content":"Awesome question!"}"#
    static let response = """
      {"type":"questionResponse","success":true,
       "message":"Question created. We will answer it as soon as possible :]",
       "id":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","answered":false,"content":"Awesome question!",
       "createdAt":785000000.123}
      """
    static let answer =
      #"{"type":"questionAnswer","questionId":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6"}"#
    static let all = [handshake, newQuestion, response, answer]
  }

  func decode(_ text: String) throws(WireDecodingError) -> WireMessage {
    try codec.decode(Array(text.utf8))
  }

  /// Two JSON texts with the same members, whatever their key order and escaping.
  func sameJSON(_ a: [UInt8], _ b: [UInt8]) throws -> Bool {
    let left = try JSONSerialization.jsonObject(with: Data(a)) as? NSDictionary
    let right = try JSONSerialization.jsonObject(with: Data(b)) as? NSDictionary
    return left != nil && left == right
  }

  @Test func protocolFixturesDecodeToTheirMessages() throws {
    #expect(try decode(Fixture.handshake) == .handshake(Handshake(id: connection)))
    #expect(
      try decode(Fixture.newQuestion)
        == .newQuestion(NewQuestion(id: connection, content: "Awesome question!")))
    #expect(try decode(Fixture.answer) == .questionAnswer(QuestionAnswer(questionId: question)))
    guard case .questionResponse(let response) = try decode(Fixture.response) else {
      Issue.record("not a response")
      return
    }
    #expect(response.success)
    #expect(response.message == "Question created. We will answer it as soon as possible :]")
    #expect(response.id == question)
    #expect(response.answered == false)
    #expect(response.content == "Awesome question!")
    #expect(response.token == nil)
  }

  @Test func referenceDateSecondsAreFoundationsDefault() throws {
    guard case .questionResponse(let response) = try decode(Fixture.response),
      let createdAt = response.createdAt
    else {
      Issue.record("no date")
      return
    }
    // docs/protocol.md: 785000000.123 is 2025-11-16T15:33:20.123Z.
    let expected = try #require(WireDate.parseISO8601("2025-11-16T15:33:20.123Z"))
    #expect(abs(createdAt.timeIntervalSince(expected)) < 0.000_5)
  }

  @Test func fixturesRoundTripThroughEncoding() throws {
    for fixture in Fixture.all {
      let message = try decode(fixture)
      let encoded = codec.encode(message)
      #expect(try decode(String(decoding: encoded, as: UTF8.self)) == message)
      #expect(try sameJSON(encoded, Array(fixture.utf8)), "\(fixture)")
    }
  }

  @Test func encodingUsesFoundationDefaults() throws {
    let response = QuestionResponse(
      success: true, message: "ok/ü", id: question, answered: false, content: "Wie geht's?",
      createdAt: Date(timeIntervalSinceReferenceDate: 785_000_000.5))
    let text = String(decoding: codec.encode(.questionResponse(response)), as: UTF8.self)
    #expect(text.contains(#""type":"questionResponse""#))
    #expect(text.contains(#""createdAt":785000000.5"#))
    #expect(text.contains(#""id":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6""#))
    #expect(text.contains(#""message":"ok\/ü""#), "slashes escaped, non-ASCII raw")
    #expect(!text.contains("token") && !text.contains("null"), "nil optionals are omitted")
  }

  @Test func newQuestionCarriesTheTokenExtensionOnlyWhenSet() throws {
    let token = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    let plain = codec.encode(.newQuestion(NewQuestion(id: connection, content: "Q")))
    #expect(
      try sameJSON(
        plain, Array(#"{"type":"newQuestion","id":"\#(connection)","content":"Q"}"#.utf8)))
    let extended = codec.encode(
      .newQuestion(NewQuestion(id: connection, content: "Q", token: token)))
    #expect(String(decoding: extended, as: UTF8.self).contains(#""token":"\#(token)""#))
  }

  @Test func tolerantInputs() throws {
    let lower = #"{"questionId":"7c0b5d0e-1b2c-4d3e-8f90-a1b2c3d4e5f6","type":"questionAnswer"}"#
    #expect(try decode(lower) == .questionAnswer(QuestionAnswer(questionId: question)))

    let iso =
      #"{"type":"questionResponse","success":true,"message":"m","createdAt":"2025-11-16T15:33:20Z","id":null,"content":null,"answered":null}"#
    guard case .questionResponse(let response) = try decode(iso) else {
      Issue.record("not a response")
      return
    }
    #expect(response.createdAt == Date(timeIntervalSinceReferenceDate: 785_000_000))
    #expect(response.id == nil && response.content == nil && response.answered == nil)

    let fractional =
      #"{"type":"questionResponse","success":false,"message":"m","createdAt":"2025-11-16T15:33:20.250Z"}"#
    guard case .questionResponse(let failure) = try decode(fractional) else {
      Issue.record("not a response")
      return
    }
    #expect(failure.createdAt == Date(timeIntervalSinceReferenceDate: 785_000_000.25))
  }

  @Test func escapedSlashesAndUnicodeEscapesDecode() throws {
    let text = #"{"type":"newQuestion","id":"\#(connection)","content":"a\/b \u00fc \ud83d\ude00"}"#
    #expect(
      try decode(text) == .newQuestion(NewQuestion(id: connection, content: "a/b ü 😀")))
  }

  @Test(
    "Malformed input is a typed error naming the problem",
    arguments: [
      ("", "malformed"),
      ("not json", "malformed"),
      ("[1,2]", "malformed"),
      ("42", "malformed"),
      (#"{"id":"x"}"#, "malformed"),
      (#"{"type":7}"#, "malformed"),
      (#"{"type":"handshake","id":"1FC4044C"#, "malformed"),
      (#"{"type":"launchRockets"}"#, "unknown"),
      (#"{"type":"handshake"}"#, "fields"),
      (#"{"type":"handshake","id":"not-a-uuid"}"#, "fields"),
      (#"{"type":"questionAnswer","questionId":42}"#, "fields"),
      (#"{"type":"questionResponse","message":"no success"}"#, "fields"),
      (
        #"{"type":"questionResponse","success":true,"message":"m","createdAt":"yesterday"}"#,
        "fields"
      ),
      (#"{"type":"questionResponse","success":true,"message":"m","createdAt":true}"#, "fields"),
    ])
  func malformed(input: String, kind: String) {
    #expect {
      _ = try codec.decode(Array(input.utf8))
    } throws: { error in
      switch (error as? WireDecodingError, kind) {
      case (.malformed?, "malformed"), (.unknownType?, "unknown"), (.invalidFields?, "fields"):
        return !"\(error)".isEmpty
      default:
        return false
      }
    }
  }

  @Test func binaryGarbageIsMalformedNotACrash() {
    let garbage: [UInt8] = [0xFF, 0xFE, 0x00, 0x7B, 0xC3, 0x28, 0x80]
    #expect(throws: WireDecodingError.self) { try codec.decode(garbage) }
  }

  @Test func errorsReadAsOneLine() {
    #expect(
      WireDecodingError.unknownType("launchRockets").description
        == #"unknown message type "launchRockets""#)
    #expect(throws: WireDecodingError.invalidFields(type: "handshake", detail: #"missing "id""#)) {
      try decode(#"{"type":"handshake"}"#)
    }
  }

  @Test func hostileContentSurvivesUnchanged() throws {
    let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}\r\n\u{0}\u{202E}evil 👩‍👩‍👧 e\u{301}"
    let message = WireMessage.newQuestion(NewQuestion(id: connection, content: hostile))
    #expect(try decode(String(decoding: codec.encode(message), as: UTF8.self)) == message)
  }

  @Test func aLargeMessageDecodes() throws {
    let content = String(repeating: "x", count: 1 << 20)
    let message = WireMessage.newQuestion(NewQuestion(id: connection, content: content))
    #expect(try codec.decode(codec.encode(message)) == message)
  }
}
