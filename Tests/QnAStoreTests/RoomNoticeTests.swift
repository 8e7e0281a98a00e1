import Foundation
import QnAStore
import Testing

/// The `NOTIFY` payload between instances: this version's, an older one's, and anyone
/// else's on the channel.
@Suite("Store: room notices between instances")
struct RoomNoticeTests {
  static let origin = UUID(uuidString: "6F1A5A6C-3C2B-4C51-9E0B-6B1F6A2B8C11")!
  static let question = UUID(uuidString: "0E5C7D4E-8B3F-4E7A-A1D2-3C4B5A697887")!

  @Test func aNoticeReadsBackWithItsSendingTime() throws {
    let notice = RoomNotice(
      origin: Self.origin, session: 42, kind: .answered, question: Self.question,
      sentAt: 1_800_000_000_123)
    #expect(notice.payload.hasPrefix("qna2 "))
    #expect(notice.payload.utf8.count < 8000)
    #expect(RoomNotice(payload: notice.payload) == notice)
  }

  @Test func anOlderInstancesNoticeIsStillRead() throws {
    let old = "qna1 \(Self.origin.uuidString) 7 session -"
    let notice = try #require(RoomNotice(payload: old))
    #expect(notice.session == 7 && notice.kind == .session && notice.question == nil)
    #expect(notice.sentAt == nil)
  }

  @Test func anythingElseIsNotANotice() {
    for payload in [
      "", "hello", "qna2 \(Self.origin.uuidString) 7 session -",
      "qna1 \(Self.origin.uuidString) 7 session - 5",
      "qna2 \(Self.origin.uuidString) 7 session - -1",
      "qna2 \(Self.origin.uuidString) 7 nonsense - 5",
      "qna3 \(Self.origin.uuidString) 7 session - 5",
      "qna2 \(Self.origin.uuidString) x session - 5",
    ] {
      #expect(RoomNotice(payload: payload) == nil, "\(payload)")
    }
  }
}
