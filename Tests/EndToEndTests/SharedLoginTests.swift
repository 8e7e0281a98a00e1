import Foundation
import TestSupport
import Testing

/// A presenter behind nginx with round-robin (no `ip_hash`): the login cookie one instance
/// issues opens all three, a logout through any of them holds on all, and one address's
/// wrong tokens count against one budget across the instances, not three.
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

  @Test func wrongTokensFromOneAddressShareOneBudgetAcrossEveryInstance() async throws {
    let cluster = try await InstanceCluster(arguments: ["--admin-token", Self.token])
    defer { cluster.stop() }
    // The burst of wrong tokens (10), one after another, each through the next instance: no
    // instance sees more than 4 of them, which alone it would take and answer 401.
    let burst = 10
    for attempt in 0..<burst {
      let refused = try await cluster.instances[attempt % 3].http(
        "GET", "/api/questions", headers: ["Authorization": "Bearer wrong-token-\(attempt)"])
      #expect(refused.status == 401, "guess \(attempt)")
    }
    // Counted together, the address is over the rate: the next wrong token is refused unjudged,
    // and from then on so is the right one on that instance (an instance learns the shared
    // count with each wrong guess it records; a right one takes nothing from the database).
    for token in ["wrong-token-again", Self.token] {
      let refused = try await cluster.instances[burst % 3].http(
        "GET", "/api/questions", headers: ["Authorization": "Bearer \(token)"])
      #expect(refused.status == 429, "\(token)")
      #expect(refused.headers["retry-after"] != nil)
    }
  }
}
