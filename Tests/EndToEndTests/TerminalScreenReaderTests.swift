import Foundation
import TestSupport
import Testing

/// `qna --screen-reader` in tmux, against `qna-server`: the screen is captured every 100 ms
/// for 10 s, through a vote storm and then a reconnection's countdown, and changes only when
/// something happens to the reader (not on a timer, not for every vote of the room), with
/// no glyph a screen reader would read as noise. The default screen, captured the same way,
/// is the evidence of what the mode saves.
@Suite("qna in a terminal: screen-reader mode", .serialized)
struct TerminalScreenReaderTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  static let glyphs: Set<Character> = ["▲", "◆", "✓", "↳", "●"]

  struct Captures {
    var frames: [String] = []
    /// Captures that differ from the one before, in the storm and in the countdown.
    var changedInStorm = 0
    var changedInCountdown = 0
  }

  /// Starts qna (with `options`) in a seeded room, then captures while votes rain for 5 s
  /// and for 5 s after the server stops.
  static func capture(options: [String]) async throws -> Captures {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    #expect(try await server.http("POST", "/control/room/seed?n=12").status == 200)
    let ids = try await server.questions().compactMap { $0["id"] as? String }
    let state = HeadlessProcess.freshDirectory()
    let terminal = try Room.terminal(state)
    defer { terminal.kill() }
    // The default reconnection policy: its waits are what a countdown shows.
    try terminal.run(
      "'\(HeadlessProcess.qnaPath)' --url \(server.url) \(options.joined(separator: " "))")
    try await terminal.waitFor("the room") {
      $0.contains("Seeded question 12") && $0.contains("connected")
    }
    try terminal.press("Down")
    try await Task.sleep(for: .milliseconds(300))
    let storm = Task {
      var round = 0
      while !Task.isCancelled {
        round += 1
        let id = ids[round % ids.count]
        _ = try? await server.http("POST", "/control/room/votes?question=\(id)&n=\(round % 3 + 1)")
        try? await Task.sleep(for: .milliseconds(50))
      }
    }
    var captures = Captures()
    let start = ContinuousClock.now
    var stopped = false
    while ContinuousClock.now - start < .seconds(10) {
      if !stopped, ContinuousClock.now - start >= .seconds(5) {
        storm.cancel()
        _ = await storm.result
        server.stop()
        stopped = true
      }
      let frame = try terminal.screen()
      if let last = captures.frames.last, last != frame {
        if stopped { captures.changedInCountdown += 1 } else { captures.changedInStorm += 1 }
      }
      captures.frames.append(frame)
      try await Task.sleep(for: .milliseconds(100))
    }
    storm.cancel()
    try terminal.press("C-c")
    return captures
  }

  @Test func aVoteStormAndACountdownChangeTheScreenOnlyOnEvents() async throws {
    let reader = try await Self.capture(options: ["--screen-reader"])
    let sighted = try await Self.capture(options: [])
    print(
      "screen-reader mode: \(reader.changedInStorm) + \(reader.changedInCountdown) changed "
        + "frames of \(reader.frames.count); default: \(sighted.changedInStorm) + "
        + "\(sighted.changedInCountdown) of \(sighted.frames.count)")
    // The storm: at most the footer saying once that the room changed.
    #expect(reader.changedInStorm <= 1, "\(reader.changedInStorm) changes in the storm")
    // The countdown: the disconnection, then each attempt's start and end (the default
    // policy makes at most three in 5 s), never a second ticking.
    #expect(reader.changedInCountdown <= 7, "\(reader.changedInCountdown) in the countdown")
    #expect(reader.frames.contains { $0.contains("reconnecting in") })
    for frame in reader.frames {
      #expect(!frame.contains(where: Self.glyphs.contains), "a glyph in\n\(frame)")
    }
    // What the mode saves: the default screen repaints with the votes and every second.
    #expect(sighted.changedInStorm >= 10 && sighted.changedInCountdown >= 3)
    #expect(sighted.frames.contains { $0.contains(where: Self.glyphs.contains) })
  }
}
