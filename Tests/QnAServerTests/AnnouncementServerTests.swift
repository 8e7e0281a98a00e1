import Foundation
import QnA
import QnAServer
import TestSupport
import Testing

extension PresenterMember {
  /// Sets the room's banner (`nil`: clears it) and waits for the outcome.
  @discardableResult
  func announce(
    _ text: String?, token: UUID = UUID(), question: UUID? = nil, occurrence: Int = 0
  ) async throws -> PresenterActionResponse {
    try await act(.announce, question, text: text, token: token, occurrence: occurrence)
  }
}

extension RoomMember {
  /// Waits for a delta whose banner is `text` (`nil`: cleared).
  func waitForAnnouncement(_ text: String?) async throws {
    _ = try await socket.waitForMessage("announcement \(text ?? "cleared")") {
      guard case .roomDelta(let delta) = $0, let announcement = delta.announcement else {
        return false
      }
      return announcement.text == text
    }
  }

  /// Waits for the room as a joiner first has it to show the banner `text` (`nil`: none): in
  /// the snapshot, on every page, or, when a snapshot read a moment before served the join (a
  /// costly read is shared a while), in the catch-up that follows it at once.
  func waitForAnnouncementOnJoining(_ text: String?) async throws {
    let pages = try await snapshot()
    let shown = Set(pages.map { $0.announcement?.text })
    #expect(shown.count == 1, "every page carries the same banner: \(shown)")
    if shown != [text] { try await waitForAnnouncement(text) }
  }
}

/// Extension `announcements`: the presenter's banner, from the socket and the API, to every
/// attendee at once and to everyone who joins later; refused when it is not a short line.
@Suite("qna-server: announcements", .serialized)
struct AnnouncementServerTests {
  @Test func anAnnouncementReachesTheRoomAndEveryoneWhoJoinsLater() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0xA0))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let handshake = try #require(
      alice.socket.messages.compactMap { try? $0.get() }.compactMap {
        if case .handshake(let handshake) = $0 { handshake } else { nil }
      }.first)
    #expect(handshake.extensions?.contains(ProtocolExtension.announcements) == true)
    let token = UUID()
    #expect(try await presenter.announce("  Coffee at 15:30 in the foyer  ", token: token).success)
    try await alice.waitForAnnouncement("Coffee at 15:30 in the foyer")
    // Sent again after a reconnect: done once, and said so.
    #expect(
      try await presenter.announce("Coffee at 15:30 in the foyer", token: token, occurrence: 1)
        .success)
    // Someone who joins now gets it in the snapshot, on every page.
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0xA0))
    try await bob.waitForAnnouncementOnJoining("Coffee at 15:30 in the foyer")
    // The API: read, replace, clear.
    let read = try await server.http("GET", "/api/announcement")
    #expect(read.status == 200 && read.body.contains("Coffee at 15:30 in the foyer"))
    let replaced = try await server.http(
      "PUT", "/api/announcement", body: #"{"text":"Room B now"}"#,
      headers: ["Content-Type": "application/json"])
    #expect(replaced.status == 200 && replaced.body.contains("Room B now"))
    try await bob.waitForAnnouncement("Room B now")
    #expect(try await server.http("DELETE", "/api/announcement").status == 200)
    try await alice.waitForAnnouncement(nil)
    try await bob.waitForAnnouncement(nil)
    #expect(try await server.http("GET", "/api/announcement").body == "{}")
    let later = try await RoomMember.join(server, as: uuid(3, group: 0xA0))
    try await later.waitForAnnouncementOnJoining(nil)
    // The attendee page and the projector view show the banner from the first paint.
    _ = try await presenter.announce("On the page <b>too</b>")
    try await alice.waitForAnnouncement("On the page <b>too</b>")
    try await Task.sleep(for: .seconds(1.1))  // the pages' one-second cache of the room
    for path in ["/room/", "/room/screen"] {
      let page = try await server.http("GET", path)
      #expect(page.body.contains("On the page &lt;b&gt;too&lt;/b&gt;"), "\(path)")
    }
  }

  @Test func whatIsNotAShortLineIsRefusedInWords() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0xA1))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let long = String(repeating: "x", count: 10_000)
    let refusals = [
      (long, "too long"), ("two\nlines", "one line"), ("bell\u{7}", "one line"),
      ("   ", "empty"), ("line\u{2028}separator", "one line"), ("\u{202E}reversed", "one line"),
      ("\u{200D}\u{2060}", "empty"),
      (
        String(repeating: "e\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}", count: 150), "bytes"
      ),
      ("Z" + String(repeating: "\u{301}", count: 20), "marks"),
    ]
    for (text, words) in refusals {
      let response = try await presenter.announce(text)
      #expect(!response.success && response.message?.contains(words) == true, "\(words)")
      #expect(response.retryAfter == nil, "final: sending it again cannot help")
    }
    let onAQuestion = try await presenter.announce("Hello", question: UUID())
    #expect(!onAQuestion.success && onAQuestion.message?.contains("no question") == true)
    // A token names one action.
    let token = UUID()
    #expect(try await presenter.announce("First", token: token).success)
    let reused = try await presenter.announce("Second", token: token, occurrence: 1)
    #expect(!reused.success && reused.message?.contains("another action") == true)
    // An attendee may not announce.
    try await alice.socket.send(
      .presenterAction(
        PresenterAction(
          id: alice.connection, token: UUID(), question: nil, action: .announce, text: "Mine")))
    let refused = try await alice.socket.waitForMessage("refusal") {
      if case .presenterActionResponse(let response) = $0 { !response.success } else { false }
    }
    #expect("\(refused)".contains("Only a presenter"))
    // The API refuses the same, and what is not its body.
    for body in [
      #"{"text":"\#(long)"}"#, #"{"text":"a\nb"}"#, #"{"txt":"typo"}"#, "not json",
      #"{"text":"ok","extra":1}"#,
    ] {
      let response = try await server.http(
        "PUT", "/api/announcement", body: body, headers: ["Content-Type": "application/json"])
      #expect(response.status == 400, "\(body.prefix(30))")
    }
    // Nothing of it reached the room: the only banner is "First".
    #expect(try await server.http("GET", "/api/announcement").body.contains("First"))
    #expect(!alice.wire.contains("Mine") && !alice.wire.contains("Second"))
  }

  @Test func aServerWithoutExtensionsAnnouncesNone() async throws {
    let server = try await ServerUnderTest { $0.extensions = false }
    defer { Task { await server.stop() } }
    let socket = try Attendee(server.socketURL)
    _ = try await socket.handshake()
    let handshake = socket.messages.compactMap { try? $0.get() }.first
    #expect("\(String(describing: handshake))".contains("announcements") == false)
    await socket.close()
  }
}
