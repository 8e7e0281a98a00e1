import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RFC6455
import WebSocketClient
import WebSocketKit

/// What each workload asks of a client, so both clients run the same code path shape.
protocol BenchClient {
  /// Connects to `path` and receives `count` messages; returns the payload bytes received.
  func receive(path: String, count: Int) async throws -> Int
  /// Sends `count` 32-byte messages one at a time, each after the previous echo; returns the
  /// round-trip times in nanoseconds.
  func echo(count: Int) async throws -> [Int64]
}

struct OurClient: BenchClient {
  let port: Int

  private func connect(_ path: String) async throws -> (
    WebSocketClient, WebSocketClient.Events.AsyncIterator
  ) {
    let client = WebSocketClient(
      url: try WebSocketURL("ws://127.0.0.1:\(port)\(path)"),
      configuration: ClientConfiguration(pingInterval: nil))
    var events = client.events.makeAsyncIterator()
    client.start()
    while let event = await events.next() {
      if case .opened = event { break }
    }
    return (client, events)
  }

  func receive(path: String, count: Int) async throws -> Int {
    var (client, events) = try await connect(path)
    var received = 0
    var bytes = 0
    while received < count, let event = await events.next() {
      if case .message(let message) = event {
        received += 1
        bytes += message.data.count
      }
    }
    await client.close()
    return bytes
  }

  func echo(count: Int) async throws -> [Int64] {
    var (client, events) = try await connect("/echo")
    let text = String(repeating: "e", count: 32)
    let clock = ContinuousClock()
    var times: [Int64] = []
    for _ in 0..<count {
      let start = clock.now
      try await client.send(text: text)
      while let event = await events.next() {
        if case .message = event { break }
      }
      let elapsed = clock.now - start
      times.append(
        elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
    await client.close()
    return times
  }
}

/// vapor/websocket-kit's NIO client, against the same server.
struct KitClient: BenchClient {
  let port: Int
  let group: any EventLoopGroup

  func receive(path: String, count: Int) async throws -> Int {
    let done = group.next().makePromise(of: Int.self)
    let tally = NIOLockedValueBox((messages: 0, bytes: 0))
    let record: @Sendable (Int) -> Void = { size in
      let finished = tally.withLockedValue { tally -> Bool in
        tally.messages += 1
        tally.bytes += size
        return tally.messages == count
      }
      if finished { done.succeed(tally.withLockedValue { $0.bytes }) }
    }
    let socket = NIOLockedValueBox<WebSocket?>(nil)
    try await WebSocket.connect(
      to: "ws://127.0.0.1:\(port)\(path)",
      configuration: .init(maxFrameSize: 1 << 24), on: group
    ) { ws in
      socket.withLockedValue { $0 = ws }
      ws.onText { _, text in record(text.utf8.count) }
      ws.onBinary { _, buffer in record(buffer.readableBytes) }
    }.get()
    let bytes = try await done.futureResult.get()
    try await socket.withLockedValue { $0 }?.close(code: .normalClosure).get()
    return bytes
  }

  func echo(count: Int) async throws -> [Int64] {
    let waiter = NIOLockedValueBox<EventLoopPromise<Void>?>(nil)
    let socket = NIOLockedValueBox<WebSocket?>(nil)
    try await WebSocket.connect(to: "ws://127.0.0.1:\(port)/echo", on: group) { ws in
      socket.withLockedValue { $0 = ws }
      ws.onText { _, _ in waiter.withLockedValue { $0 }?.succeed(()) }
    }.get()
    guard let ws = socket.withLockedValue({ $0 }) else { return [] }
    let text = String(repeating: "e", count: 32)
    let clock = ContinuousClock()
    var times: [Int64] = []
    for _ in 0..<count {
      let promise = group.next().makePromise(of: Void.self)
      waiter.withLockedValue { $0 = promise }
      let start = clock.now
      ws.send(text)
      try await promise.futureResult.get()
      let elapsed = clock.now - start
      times.append(
        elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
    try await ws.close(code: .normalClosure).get()
    return times
  }
}
