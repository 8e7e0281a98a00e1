import Foundation
import Hummingbird
import NIOCore
import NIOWebSocket
import QnAGuards
import QnARoom
import QnAStore
import RFC6455

/// `--mock` only: what scripted tests use to misbehave on purpose. `?id=` narrows a control
/// to one connection; without it, every socket is affected.
struct ControlController: Sendable {
  /// The default room: the one scripted tests connect to.
  let room: SessionRoom

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    let hub = room.sockets
    router.post("/control/drop") { request, _ -> ControlResult in
      let targets = try hub.select(Self.connectionID(request))
      for connection in targets { connection.drop() }
      return ControlResult(affected: targets.count)
    }
    router.post("/control/close") { request, _ -> ControlResult in
      let query = request.uri.queryParameters
      let code = query["code"].flatMap { UInt16(String($0)) } ?? 1001
      // The engine's own rule (RFC 6455 §7.4): a code the server could send, the client
      // would refuse.
      guard CloseCode(code).isAllowedOnWire else {
        throw HTTPError(.badRequest, message: "code must be a close code a frame may carry")
      }
      let reason = query["reason"].map { String($0) } ?? ""
      guard reason.utf8.count <= 123 else {
        throw HTTPError(.badRequest, message: "reason longer than 123 bytes")
      }
      let targets = try hub.select(Self.connectionID(request))
      for connection in targets {
        connection.close(code: .init(codeNumber: Int(code)), reason: reason)
      }
      return ControlResult(affected: targets.count)
    }
    router.post("/control/stall") { request, _ -> ControlResult in
      let seconds = request.uri.queryParameters["seconds"].flatMap { Double(String($0)) } ?? 30
      guard seconds > 0, seconds <= 3600 else {
        throw HTTPError(.badRequest, message: "seconds must be in (0, 3600]")
      }
      let outgoingOnly: Bool
      switch request.uri.queryParameters["direction"] {
      case nil, "both": outgoingOnly = false
      case "out": outgoingOnly = true
      case let other?:
        throw HTTPError(.badRequest, message: "direction must be both or out, not '\(other)'")
      }
      let targets = try hub.select(Self.connectionID(request))
      for connection in targets {
        // Holds all traffic both ways: a half-open link as the client sees it.
        connection.channel.pipeline.fireUserInboundEventTriggered(
          StallCommand(
            duration: .nanoseconds(Int64(seconds * 1e9)), outgoingOnly: outgoingOnly))
      }
      return ControlResult(affected: targets.count)
    }
    router.post("/control/send") { request, _ -> ControlResult in
      let body = try await request.body.collect(upTo: room.settings.maxMessageSize * 64)
      let targets = try hub.select(Self.connectionID(request))
      for connection in targets { room.send(raw: body, to: connection) }
      return ControlResult(affected: targets.count)
    }
    // The room, busy on demand: questions from simulated attendees, and their votes.
    router.post("/control/room/seed") { request, _ -> ControlResult in
      let count = try Self.positive(request, "n", upTo: 100_000)
      let environment = room.environment
      let now = environment.now()
      let questions = (0..<count).map { index in
        StoredQuestion(
          id: environment.makeID(), content: "Seeded question \(index + 1)",
          askedFrom: environment.makeID(), createdAt: now.addingTimeInterval(Double(index) / 1000),
          attendee: environment.makeID())
      }
      try await room.store.seed(questions)
      return ControlResult(affected: count)
    }
    router.post("/control/room/votes") { request, _ -> ControlResult in
      let count = try Self.positive(request, "n", upTo: 1_000_000)
      guard let raw = request.uri.queryParameters["question"],
        let id = UUID(uuidString: String(raw))
      else { throw HTTPError(.badRequest, message: "question must be a question id") }
      let environment = room.environment
      guard
        try await room.store.simulateVotes(
          for: id, count: count, at: environment.now(), makeID: environment.makeID) != nil
      else { throw HTTPError(.notFound, message: "no question \(id)") }
      return ControlResult(affected: count)
    }
    router.get("/control/connections") { _, _ -> [ConnectionJSON] in
      hub.all.sorted { $0.openedAt < $1.openedAt }.map {
        ConnectionJSON(id: $0.id, openedAt: $0.openedAt, queued: $0.backlog)
      }
    }
  }

  /// A whole number in 1…`limit` from the query; 400 otherwise.
  private static func positive(_ request: Request, _ name: String, upTo limit: Int) throws -> Int {
    guard let raw = request.uri.queryParameters[Substring(name)], let value = Int(String(raw)),
      (1...limit).contains(value)
    else { throw HTTPError(.badRequest, message: "\(name) must be 1–\(limit)") }
    return value
  }

  private static func connectionID(_ request: Request) throws -> UUID? {
    guard let raw = request.uri.queryParameters["id"] else { return nil }
    guard let id = UUID(uuidString: String(raw)) else {
      throw HTTPError(.badRequest, message: "id is not a connection id")
    }
    return id
  }
}

struct ControlResult: ResponseEncodable, Sendable {
  /// Sockets the control acted on.
  var affected: Int
}

struct ConnectionJSON: ResponseEncodable, Sendable {
  var id: UUID
  var openedAt: Date
  /// Bytes waiting to be written to it (an attendee that stopped reading has some).
  var queued: Int
}
