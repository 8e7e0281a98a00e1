import NIOConcurrencyHelpers
import NIOCore
import WebSocketKit

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
    // The upgrade callback may run after connect's future completes.
    var upgraded = socket.withLockedValue { $0 }
    while upgraded == nil {
      try await Task.sleep(for: .milliseconds(1))
      upgraded = socket.withLockedValue { $0 }
    }
    guard let ws = upgraded else { return [] }
    let text = String(repeating: "e", count: 32)
    let clock = ContinuousClock()
    var times: [Int64] = []
    for _ in 0..<count {
      let promise = group.next().makePromise(of: Void.self)
      waiter.withLockedValue { $0 = promise }
      let start = clock.now
      try await ws.send(text)
      try await promise.futureResult.get()
      let elapsed = clock.now - start
      times.append(
        elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
    try await ws.close(code: .normalClosure).get()
    return times
  }
}
