import Foundation
import Synchronization
import TestSupport
import Testing

/// docs/scale-out.md's rolling restart, done: three instances behind nginx restarted one after
/// another (SIGTERM, then started again on the same port) while attendees ask and vote and the
/// presenter answers. Each socket on a stopping instance is closed with 1001 and its client
/// reconnects once, through nginx, to an instance that is up; nothing is lost or doubled.
@Suite("Rolling restart: three instances behind nginx, one after another", .serialized)
struct RollingRestartTests {
  static let token = "rolling-restart-admin-token"
  static let bearer = ["Authorization": "Bearer \(token)"]

  @Test func restartingEveryInstanceInTurnLosesNothingAndReconnectsEachClientOnce()
    async throws
  {
    // The instances' defaults (no --shutdown-delay: nginx does not poll /readyz).
    let cluster = try await InstanceCluster(arguments: [
      "--admin-token", Self.token, "--trusted-proxy", "127.0.0.1",
    ])
    defer { cluster.stop() }
    // The clients' defaults too: a 1001 is an outage to them, so each waits up to 5 s
    // (jittered) before it reconnects.
    let clients = try (0..<3).map { _ in
      try HeadlessProcess([
        "--url", cluster.socket, "--room", "--wait-answered", "--timeout", "300s",
      ])
    }
    let load = ClusterLoad(clients: clients, perClient: 60, voted: 20)
    let voting = load.start(every: .milliseconds(500), waiting: 120)
    let presenter = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(400))
        guard
          let listing = try? await cluster.http(
            "GET", "/api/questions?limit=1000", headers: Self.bearer)
        else { continue }
        for id in load.answerable(listing) {
          _ = try? await cluster.http(
            "POST", "/api/questions/\(id)/answer", headers: Self.bearer)
        }
      }
    }
    try await Task.sleep(for: .seconds(4))
    var downtimes: [Duration] = []
    for index in cluster.instances.indices {
      downtimes.append(try await cluster.restart(index))
      // Time for its clients to settle elsewhere before the next goes.
      try await Task.sleep(for: .seconds(6))
    }

    var statuses: [Int32] = []
    for client in clients { statuses.append(await client.exitStatus()) }
    presenter.cancel()
    try await voting.value

    let listing = try await cluster.http("GET", "/api/questions?limit=1000", headers: Self.bearer)
    let stored =
      try JSONSerialization.jsonObject(with: Data(listing.body.utf8)) as? [[String: Any]] ?? []
    // Each disconnection that the client meant to recover from (one it retries), the
    // handshake that ended it, and the connection attempts between the two.
    var gaps: [Duration] = []
    var attempts: [Int] = []
    for client in clients {
      let events = client.events
      for (index, event) in events.enumerated()
      where event.name == "disconnected" && event.fields["retryIn"] is NSNumber {
        let rest = events[(index + 1)...]
        guard let back = rest.firstIndex(where: { $0.name == "handshake" }) else {
          attempts.append(0)
          continue
        }
        gaps.append(events[back].at - event.at)
        attempts.append(events[(index + 1)..<back].filter { $0.name == "connecting" }.count)
      }
    }
    let reasons = clients.flatMap { client in
      client.events.filter { $0.name == "disconnected" }.compactMap { $0["reason"] }
    }
    print(
      "rolling restart: instances down for \(downtimes); \(gaps.count) disconnections, "
        + "worst gap \(gaps.max() ?? .zero), attempts \(attempts); reasons \(Set(reasons)); "
        + "slowest answer to an attendee's question \(load.slowestAnswer())")
    #expect(statuses == [0, 0, 0], "\(clients.map(\.stderr))")
    load.expectStored(stored)
    #expect(!gaps.isEmpty, "some client was on a restarted instance")
    // One reconnect each time: the first attempt after a disconnection gets in.
    #expect(attempts.allSatisfy { $0 == 1 }, "\(attempts)")
  }

  /// With `--shutdown-delay`, SIGTERM turns the instance unready at once: `/readyz` says so
  /// and a new socket gets 503, while the open ones go on until the delay is up, then get
  /// 1001.
  @Test func shuttingDownTurnsUnreadyFirstThenClosesEverySocketWithGoingAway() async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--shutdown-delay", "2s",
    ])
    defer { server.stop() }
    #expect(try await server.http("GET", "/readyz").status == 200)
    let client = try HeadlessProcess(["--url", server.url, "--room"])
    _ = try await client.waitFor("handshake", seconds: 10)
    kill(server.child.pid, SIGTERM)
    try await Task.sleep(for: .milliseconds(500))
    let ready = try await server.http("GET", "/readyz")
    #expect(ready.status == 503 && ready.body.contains("shutting down"), "\(ready)")
    let upgrade = try await server.http(
      "GET", "/socket",
      headers: [
        "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
      ])
    #expect(upgrade.status == 503, "\(upgrade)")
    #expect(!client.events.contains { $0.name == "disconnected" }, "still open in the delay")
    let closed = try await client.waitFor("disconnected", seconds: 10)
    #expect(closed["reason"]?.contains("1001") == true, "\(closed.raw)")
    client.interrupt()
    _ = await client.exitStatus()
  }
}
