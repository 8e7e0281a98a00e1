import RFC6455
import WebSocketClient

// Imports only our modules: WebSocketKit has a type named WebSocketClient too.
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
