import Foundation
import Hummingbird
import NIOCore
import NIOWebSocket
import RFC6455

/// `--mock` only: what scripted tests use to misbehave on purpose. `?id=` narrows a control
/// to one connection; without it, every socket is affected.
extension QnAServerApp {
  static func addControlRoutes(
    to router: some RouterMethods<ServerRequestContext>, desk: QuestionDesk
  ) {
    let hub = desk.hub
    router.post("/control/drop") { request, _ -> ControlResult in
      let targets = try hub.select(connectionID(request))
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
      let targets = try hub.select(connectionID(request))
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
      let targets = try hub.select(connectionID(request))
      for connection in targets { connection.stall(seconds: seconds) }
      return ControlResult(affected: targets.count)
    }
    router.post("/control/send") { request, _ -> ControlResult in
      let body = try await request.body.collect(upTo: desk.configuration.maxMessageSize * 64)
      let targets = try hub.select(connectionID(request))
      for connection in targets { await desk.send(raw: body, to: connection) }
      return ControlResult(affected: targets.count)
    }
    router.get("/control/connections") { _, _ -> [ConnectionJSON] in
      hub.all.sorted { $0.openedAt < $1.openedAt }.map {
        ConnectionJSON(id: $0.id, openedAt: $0.openedAt, queued: $0.backlog)
      }
    }
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
