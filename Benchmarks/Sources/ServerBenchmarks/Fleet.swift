import Foundation
import QnA
import RFC6455
import Synchronization
import WebSocketClient

/// A thousand attendees on the project's own engine, each recording when its handshake,
/// response and answer arrive.
final class Fleet: Sendable {
  struct Attendee: Sendable {
    var connectionID: UUID?
    var questionID: UUID?
    var responseAt: ContinuousClock.Instant?
    var answerAt: ContinuousClock.Instant?
  }

  let clients: [WebSocketClient]
  private let state: Mutex<[Attendee]>
  private let readers: Mutex<[Task<Void, Never>]> = Mutex([])

  init(size: Int, url: String) throws {
    let target = try WebSocketURL(url)
    clients = (0..<size).map { _ in
      WebSocketClient(url: target, configuration: ClientConfiguration(pingInterval: nil))
    }
    state = Mutex(Array(repeating: Attendee(), count: size))
  }

  func start() {
    let codec = WireCodec()
    for (index, client) in clients.enumerated() {
      client.start()
      let events = client.events
      let task = Task { [self] in
        for await event in events {
          guard case .message(let message) = event,
            let decoded = try? codec.decode(message.data)
          else { continue }
          let now = ContinuousClock.now
          state.withLock { attendees in
            switch decoded {
            case .handshake(let body): attendees[index].connectionID = body.id
            case .questionResponse(let body):
              attendees[index].questionID = body.id
              attendees[index].responseAt = now
            case .questionAnswer: attendees[index].answerAt = now
            // Client-to-server messages, the room, and replies to what this fleet never sends.
            default: break
            }
          }
        }
      }
      readers.withLock { $0.append(task) }
    }
  }

  var attendees: [Attendee] { state.withLock { $0 } }

  /// Polls until `done` holds for every attendee (or `seconds` pass); false on timeout.
  func wait(seconds: Double, until done: (Attendee) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if attendees.allSatisfy(done) { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return false
  }

  /// Every attendee asks one question, binary as the original clients did.
  func askAll() async {
    let codec = WireCodec()
    await withTaskGroup(of: Void.self) { group in
      for (index, client) in clients.enumerated() {
        guard let id = attendees[index].connectionID else { continue }
        let bytes = codec.encode(
          .newQuestion(NewQuestion(id: id, content: "Question \(index): why Swift on Linux?")))
        group.addTask { try? await client.send(binary: bytes) }
      }
    }
  }

  func stop() async {
    await withTaskGroup(of: Void.self) { group in
      for client in clients { group.addTask { await client.close() } }
    }
    for task in readers.withLock({ $0 }) { await task.value }
  }
}
