/// What each workload asks of a client, so both clients run the same code path shape.
protocol BenchClient {
  /// Connects to `path` and receives `count` messages; returns the payload bytes received.
  func receive(path: String, count: Int) async throws -> Int
  /// Sends `count` 32-byte messages one at a time, each after the previous echo; returns the
  /// round-trip times in nanoseconds.
  func echo(count: Int) async throws -> [Int64]
}
