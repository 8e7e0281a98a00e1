import RFC6455
import Synchronization
import TestSupport
import Testing
import WebSocketClient

/// `TypedChannel`: Codable values over the client, on the in-memory transport and a manual
/// clock: queued before the connection opens, decode failures as values, reconnects.
@Suite("Typed messages over the client")
struct TypedChannelTests {
  struct Note: Codable, Sendable, Equatable {
    var n: Int
  }

  let runtime = ClientRuntimeTests()

  /// What the channel delivered, as words: values, failures and connection events.
  final class Recorder: Sendable {
    private let seen = Mutex<[String]>([])
    init(_ channel: TypedChannel<Note, Note>) {
      Task {
        for await event in channel.events {
          let word: String
          switch event {
          case .value(let note): word = "note \(note.n)"
          case .undecodable(let message, _): word = "undecodable \(message.text ?? "")"
          case .connection(.opened): word = "opened"
          case .connection(.disconnected): word = "disconnected"
          case .connection: continue
          }
          self.seen.withLock { $0.append(word) }
        }
      }
    }
    var all: [String] { seen.withLock { $0 } }
  }

  func notes(_ server: PipeServer) -> [Int] {
    server.framesFromClient.compactMap { output -> Int? in
      guard case .message(let message) = output, let text = message.text else { return nil }
      return Int(text.filter(\.isNumber))
    }
  }

  @Test func valuesSentBeforeTheConnectionOpensGoInOrderOnceItDoes() async throws {
    let transport = PipeTransport()
    let client = runtime.makeClient(transport, ManualClock())
    let channel = TypedChannel<Note, Note>(client)
    for n in 1...3 { try await channel.send(Note(n: n)) }
    #expect(channel.queuedCount == 3, "queued, not lost, while nothing is open")
    let recorder = Recorder(channel)
    let server = await runtime.startAndAwaitRequest(client, on: transport)
    server.accept()
    #expect(await eventually { self.notes(server) == [1, 2, 3] })
    try await channel.send(Note(n: 4))
    #expect(notes(server) == [1, 2, 3, 4] && channel.queuedCount == 0)
    #expect(recorder.all.first == "opened")
    await closeGracefully(client, answeredBy: server)
  }

  @Test func aMessageThatDoesNotDecodeIsDeliveredAsSuchAndTheStreamGoesOn() async throws {
    let transport = PipeTransport()
    let client = runtime.makeClient(transport, ManualClock())
    let channel = TypedChannel<Note, Note>(client)
    let recorder = Recorder(channel)
    let server = await runtime.startAndAwaitRequest(client, on: transport)
    server.accept(
      then: serverFrame(.text, Array(#"{"n":1}"#.utf8)) + serverFrame(.text, Array("nonsense".utf8))
        + serverFrame(.text, Array(#"{"m":2}"#.utf8))
        + serverFrame(.binary, Array(#"{"n":3}"#.utf8)))
    #expect(
      await eventually {
        recorder.all == [
          "opened", "note 1", "undecodable nonsense", #"undecodable {"m":2}"#, "note 3",
        ]
      })
    await closeGracefully(client, answeredBy: server)
  }

  @Test func valuesSentWhileDisconnectedGoOnTheNextConnection() async throws {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = runtime.makeClient(transport, clock, reconnect: ReconnectPolicy())
    let channel = TypedChannel<Note, Note>(client)
    let recorder = Recorder(channel)
    let first = await runtime.startAndAwaitRequest(client, on: transport)
    first.accept()
    #expect(await eventually { recorder.all.contains("opened") })
    try await channel.send(Note(n: 1))
    #expect(notes(first) == [1])
    first.closeTCP()
    #expect(await eventually { recorder.all.contains("disconnected") })
    try await channel.send(Note(n: 2))
    try await channel.send(Note(n: 3))
    #expect(channel.queuedCount == 2)
    // The backoff, then a new connection: what waited goes there, in order.
    #expect(await eventually { clock.sleeperCount > 0 })
    clock.advance(by: .seconds(30))
    #expect(
      await eventually { transport.connectCount == 2 && transport.servers[1].requestKey != nil })
    transport.servers[1].accept()
    #expect(await eventually { self.notes(transport.servers[1]) == [2, 3] })
    #expect(channel.queuedCount == 0)
    await closeGracefully(client, answeredBy: transport.servers[1])
  }

  @Test func aValueThatDoesNotEncodeIsAnErrorAndNothingIsQueued() async throws {
    struct Bad: Encodable, Sendable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
      }
    }
    let channel = TypedChannel<Note, Bad>(
      runtime.makeClient(PipeTransport(), ManualClock()))
    await #expect(throws: TypedChannel<Note, Bad>.SendError.self) { try await channel.send(Bad()) }
    #expect(channel.queuedCount == 0)
  }
}
