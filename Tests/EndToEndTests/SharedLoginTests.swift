import Foundation
import TestSupport
import Testing

/// A presenter behind nginx with round-robin (no `ip_hash`): the login cookie one instance
/// issues opens all three, a logout through any of them holds on all, and one address's
/// wrong tokens take turns across the instances, not three queues at once.
@Suite("Shared logins: one login, three instances, round-robin", .serialized)
struct SharedLoginTests {
  static let token = "shared-login-admin-token"

  @Test func aLoginThroughNginxOpensEveryInstanceAndALogoutClosesThemAll() async throws {
    let cluster = try await InstanceCluster(arguments: [
      "--admin-token", Self.token, "--trusted-proxy", "127.0.0.1",
    ])
    defer { cluster.stop() }
    let login = try await cluster.http(
      "POST", "/login", body: "token=\(Self.token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(login.status == 303, "\(login)")
    let setCookie = try #require(login.headers["set-cookie"])
    let cookie = String(setCookie.prefix { $0 != ";" })
    #expect(cookie.hasPrefix("qna_session=") && !cookie.contains(Self.token))
    // Each instance directly, and nginx's round robin over all three.
    for instance in cluster.instances {
      let list = try await instance.http("GET", "/api/questions", headers: ["Cookie": cookie])
      #expect(list.status == 200, "instance on \(instance.port): \(list.status)")
    }
    for _ in 0..<6 {
      #expect(
        try await cluster.http("GET", "/api/questions", headers: ["Cookie": cookie]).status == 200)
    }
    let logout = try await cluster.instances[1].http(
      "POST", "/logout", headers: ["Cookie": cookie])
    #expect(logout.status == 303)
    for instance in cluster.instances {
      let list = try await instance.http("GET", "/api/questions", headers: ["Cookie": cookie])
      #expect(list.status == 401, "instance on \(instance.port) still admits a logged-out cookie")
    }
  }

  @Test func wrongTokensFromOneAddressTakeTurnsAcrossEveryInstance() async throws {
    let cluster = try await InstanceCluster(arguments: ["--admin-token", Self.token])
    defer { cluster.stop() }
    // Four wrong tokens, one after another, each through the next instance. Per instance
    // each would be a first guess, answered at once; counted together, the turns are
    // 250 ms, 500 ms and 1 s apart.
    let started = ContinuousClock.now
    for attempt in 0..<4 {
      let refused = try await cluster.instances[attempt % 3].http(
        "GET", "/api/questions", headers: ["Authorization": "Bearer wrong-token-\(attempt)"])
      #expect(refused.status == 401)
    }
    let took = ContinuousClock.now - started
    print("shared login throttle: four wrong tokens through three instances took \(took)")
    #expect(took >= .milliseconds(1500), "one queue of turns across the instances")
    // The right token gets in at once, whatever came before.
    let right = ContinuousClock.now
    let admitted = try await cluster.instances[2].http(
      "GET", "/api/questions", headers: ["Authorization": "Bearer \(Self.token)"])
    #expect(admitted.status == 200)
    #expect(ContinuousClock.now - right < .seconds(1))
  }
}
