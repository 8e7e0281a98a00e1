import Foundation
import QnA
import WebSocketClient

/// A projector's socket (extension `audience`): joins as a screen, is told the head count.
struct RoomScreen {
  let socket: Attendee
  let connection: UUID

  /// Connects to `path` (a session's socket, or the default one) and joins as a screen.
  static func join(_ server: ServerUnderTest, path: String = "/socket") async throws
    -> RoomScreen
  {
    let socket = try Attendee("ws://127.0.0.1:\(server.port)\(path)")
    let connection = try await socket.handshake()
    try await socket.send(
      raw:
        #"{"type":"join","id":"\#(connection.uuidString)","attendee":"\#(UUID().uuidString)","screen":true,"counts":true}"#
    )
    return RoomScreen(socket: socket, connection: connection)
  }

  /// Every head count it was told, in order.
  var counts: [Int] {
    socket.messages.compactMap {
      if case .audience(let audience)? = try? $0.get() { audience.count } else { nil }
    }
  }

  /// Waits until the count it was told last is `count`: what it shows.
  func waitForCount(_ count: Int, seconds: Double = 10) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if counts.last == count { return }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw ServerTestError.timedOut("a head count of \(count) (told \(counts))", socket.events)
  }

  /// Waits past a few of the server's reads of the count (`HeadCount.interval`), then gives
  /// the count it was told last: what it shows once whatever was on its way has arrived.
  func settledCount() async throws -> Int? {
    try await Task.sleep(for: .milliseconds(2500))
    return counts.last
  }
}
