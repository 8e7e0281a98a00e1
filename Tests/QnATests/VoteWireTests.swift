import Foundation
import QnA
import TestSupport
import Testing

/// `VoteWire` reads and writes votes as `WireCodec` does, or leaves them to it: never a vote
/// the codec reads otherwise, or refuses.
@Suite("Votes read and written without Codable, as the codec reads and writes them")
struct VoteWireTests {
  let codec = WireCodec()
  let id = UUID(uuidString: "1FC4044C-7E20-4332-9349-E4FDD69A10B3")!
  let question = UUID(uuidString: "7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6")!
  let token = UUID(uuidString: "00000000-0000-4000-8000-0000000000FF")!

  func fast(_ text: String) -> Vote? {
    Array(text.utf8).withUnsafeBytes(VoteWire.vote(in:))
  }

  func codecVote(_ text: String) -> Vote? {
    guard case .vote(let vote)? = try? codec.decode(Array(text.utf8)) else { return nil }
    return vote
  }

  @Test func readsTheVotesClientsSend() {
    let expected = Vote(id: id, question: question, up: true, token: token)
    // As `qna`, the page and the docs write it, and with the keys in other orders, spaced,
    // in lower case.
    for text in [
      String(decoding: codec.encode(.vote(expected)), as: UTF8.self),
      #"{"type":"vote","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3","question":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","up":true,"token":"00000000-0000-4000-8000-0000000000FF"}"#,
      #" { "up" : true , "token":"00000000-0000-4000-8000-0000000000ff","question":"7c0b5d0e-1b2c-4d3e-8f90-a1b2c3d4e5f6","id":"1fc4044c-7e20-4332-9349-e4fdd69a10b3","type":"vote" }"#,
      "{\"type\":\"vote\",\n\t\"id\":\"1FC4044C-7E20-4332-9349-E4FDD69A10B3\",\r\n\"question\":\"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6\",\"up\":true,\"token\":\"00000000-0000-4000-8000-0000000000FF\"}\n",
    ] {
      #expect(fast(text) == expected, "\(text)")
      #expect(codecVote(text) == expected, "\(text)")
    }
    var down = expected
    down.up = false
    #expect(fast(String(decoding: codec.encode(.vote(down)), as: UTF8.self)) == down)
  }

  /// Shapes the codec reads, or refuses, that this leaves to it.
  @Test func leavesEveryOtherShapeToTheCodec() {
    let base =
      #"{"type":"vote","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3","question":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","up":true,"token":"00000000-0000-4000-8000-0000000000FF"}"#
    let others = [
      base.replacingOccurrences(of: #""type":"vote""#, with: #""type":"vot\u0065""#),
      base.replacingOccurrences(of: #""type":"vote""#, with: #""type":"newQuestion""#),
      base.replacingOccurrences(of: #""up":true"#, with: #""up":1"#),
      base.replacingOccurrences(of: #""up":true"#, with: #""up":null"#),
      base.replacingOccurrences(of: #","up":true"#, with: ""),
      base.replacingOccurrences(of: #""token""#, with: #""tok\u0065n""#),
      base.replacingOccurrences(of: "}", with: #","extra":1}"#),
      base.replacingOccurrences(of: "}", with: #","up":false}"#),
      base.replacingOccurrences(of: "1FC4044C-", with: "{1FC4044C-"),
      base.replacingOccurrences(of: "1FC4044C-7E20", with: "1FC4044C7E20-"),
      base.replacingOccurrences(of: "1FC4044C", with: "1FC4044G"),
      base.replacingOccurrences(of: "1FC4044C", with: "1FC4044É"),
      base + "x", "[" + base + "]", String(base.dropLast()), "{}", "", "{", "null",
    ]
    for text in others {
      #expect(fast(text) == nil, "\(text)")
    }
  }

  /// Random edits of a vote: whatever this reads, the codec reads the same.
  @Test func neverReadsAVoteTheCodecReadsOtherwise() {
    var random = SplitMix64(seed: 52)
    let base = Array(
      #"{"type":"vote","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3","question":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","up":true,"token":"00000000-0000-4000-8000-0000000000FF"}"#
        .utf8)
    let alphabet = Array(#"{}[]":, \tabcdefABCDEF0123456789-truefalsnl\"#.utf8) + [0x00, 0xC3]
    var read = 0
    for _ in 0..<20_000 {
      var bytes = base
      for _ in 0..<Int(random.next() % 3 + 1) {
        let at = Int(random.next() % UInt64(bytes.count))
        let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
        switch random.next() % 3 {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        default: bytes.remove(at: at)
        }
      }
      guard let vote = bytes.withUnsafeBytes(VoteWire.vote(in:)) else { continue }
      read += 1
      let decoded = try? codec.decode(bytes)
      #expect(decoded == .vote(vote), "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(read > 100, "some edits are still votes")
  }

  @Test func writesAnAcceptedVotesAnswerAsTheCodecReadsIt() throws {
    let random = (0..<100).map { number in
      VoteResponse(
        question: UUID(), token: UUID(), success: true, voted: number % 2 == 0, votes: number,
        seq: number * 1000)
    }
    for response in random + [
      VoteResponse(
        question: question, token: token, success: true, voted: true, votes: 12, seq: 40),
      VoteResponse(question: question, token: token, success: true, voted: false, votes: 0, seq: 0),
      VoteResponse(question: question, token: token, success: false, voted: false, votes: 3),
    ] {
      let bytes = try #require(VoteWire.encode(response))
      // The same members as the codec writes (its key order is not fixed), read back alike.
      let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
      let codecs =
        try JSONSerialization.jsonObject(with: Data(codec.encode(.voteResponse(response))))
        as? NSDictionary
      #expect(object != nil && object == codecs)
      #expect(try codec.decode(bytes) == .voteResponse(response))
    }
    // A message or a wait is the codec's to write.
    #expect(
      VoteWire.encode(
        VoteResponse(
          question: question, token: token, success: false, voted: false, votes: 0,
          message: "Too \"many\"", retryAfter: 0.25)) == nil)
  }
}
