import Foundation
import QnAServer
import TestSupport
import Testing

/// The attacker at the throttle: 1,000 join codes guessed at once from one address,
/// each client giving up after 100 ms, the right code among them; then SIGTERM while every
/// connection is still held. On the server's defaults, as a process.
@Suite("qna-server: a thousand guesses at once", .serialized)
struct ParallelGuessTests {
  @Test func aThousandParallelGuessesLearnNoMoreThanTheRateAndHoldNothingAtShutdown()
    async throws
  {
    // This process holds the 1,000 connections: it needs the descriptors itself.
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    try #require(limit.rlim_cur >= 2000, "the hard open-file limit is too low for this test")
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let created = try await server.http(
      "POST", "/api/sessions", body: "{\"title\": \"Keynote\"}",
      headers: ["Content-Type": "application/json"])
    let object = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
    let code = try #require(object?["code"] as? String)

    let port = server.port
    let guesses = 1000
    let rightAt = 600
    let (sockets, sent) = await onOwnThread { () -> ([Int32], Duration) in
      let started = ContinuousClock.now
      var sockets: [Int32] = []
      for index in 0..<guesses {
        let guess =
          index == rightAt
          ? code : String(format: "ZZ%04d", index).replacingOccurrences(of: "0", with: "Q")
        let request = "GET /s/\(guess)/login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        if let fd = loopbackConnection(port: port, sending: request) { sockets.append(fd) }
      }
      // 100 ms of patience after the last guess went out.
      usleep(100_000)
      return (sockets, ContinuousClock.now - started)
    }
    defer { for fd in sockets { close(fd) } }
    let withinPatience = Self.statuses(of: sockets)

    // SIGTERM while guesses are still in flight and every connection open: out within the
    // delay (0 by default) plus 1 s.
    let stopped = ContinuousClock.now
    kill(server.child.pid, SIGTERM)
    let status = await onOwnThread { server.child.wait() }
    let exit = ContinuousClock.now - stopped
    #expect(status == 0)
    #expect(exit < .seconds(1), "exited \(exit) after SIGTERM")

    // Everything the server answered, until it went: no more results than the rate allows.
    let answered = withinPatience + Self.statuses(of: sockets)
    let judged = answered.filter { $0 == 404 || $0 == 200 }.count
    let learned = withinPatience.filter { $0 == 404 || $0 == 200 }.count
    let allowed = GuessThrottle.burst + Int((sent + exit) / GuessThrottle.interval) + 1
    print(
      "parallel guesses: \(guesses) sent; within 100 ms of patience \(learned) results "
        + "(404 or 200) of \(withinPatience.count) answers; \(judged) results and "
        + "\(answered.filter { $0 == 429 }.count) refusals over the rate (429) in all, in "
        + "\(sent + exit); SIGTERM with \(sockets.count) connections open: exited after \(exit)")
    #expect(judged <= allowed, "learned \(judged) results, the rate allows \(allowed)")
    #expect(answered.allSatisfy { [200, 404, 429].contains($0) }, "\(Set(answered))")
  }

  /// The status of each response that has come in on these connections (read without
  /// waiting; each is read once).
  static func statuses(of sockets: [Int32]) -> [Int] {
    var statuses: [Int] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    for fd in sockets {
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      guard count > 12, buffer.starts(with: Array("HTTP/1.1 ".utf8)) else { continue }
      statuses.append(Int(String(decoding: buffer[9..<12], as: UTF8.self)) ?? 0)
    }
    return statuses
  }
}
