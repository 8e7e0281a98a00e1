import Foundation
import NIOCore
import NIOPosix

// End-to-end client benchmarks over loopback: our WebSocketClient and vapor/websocket-kit's
// NIO client against the same local NIOWebSocket server, measured in the same run.

let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let (server, port) = try await BenchServer.start(on: serverGroup)
let ours = OurClient(port: port)
let kit = KitClient(port: port, group: clientGroup)
let clock = ContinuousClock()
let repetitions = 5

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The fastest of `repetitions` receive runs of each client, in seconds. The runs alternate
/// between the clients, so that a drift in the machine's state over the run favours neither.
func receiveTimes(path: String, count: Int, bytes: Int) async throws -> (ours: Double, kit: Double)
{
  var best = (ours: Double.infinity, kit: Double.infinity)
  for _ in 0..<repetitions {
    best.ours = min(best.ours, try await receiveTime(ours, path: path, count: count, bytes: bytes))
    best.kit = min(best.kit, try await receiveTime(kit, path: path, count: count, bytes: bytes))
  }
  return best
}

func receiveTime(_ client: any BenchClient, path: String, count: Int, bytes: Int) async throws
  -> Double
{
  let start = clock.now
  let received = try await client.receive(path: path, count: count)
  precondition(received == bytes, "received \(received) of \(bytes) bytes")
  return seconds(clock.now - start)
}

/// CPU seconds `body` cost this process, less what the server's event-loop thread spent.
func clientCPU(_ body: () async throws -> Int) async throws -> Double {
  let serverBefore = try await serverGroup.next().submit { threadCPUSeconds() }.get()
  let before = processCPUSeconds()
  _ = try await body()
  let after = processCPUSeconds()
  let serverAfter = try await serverGroup.next().submit { threadCPUSeconds() }.get()
  return (after - before) - (serverAfter - serverBefore)
}

func percentile(_ sorted: [Int64], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1000
}

print(
  "Client end to end over loopback: RFC6455 WebSocketClient vs vapor/websocket-kit (same server, same run)"
)
print("| row | RFC6455 | websocket-kit | ratio (×, >1 = ours faster) |")
print("|---|---:|---:|---:|")

// `ClientBenchmarks echo` runs the echo rows only, `ClientBenchmarks small` the small-message
// rows only (for profiling).
let echoOnly = CommandLine.arguments.dropFirst().first == "echo"
let smallOnly = CommandLine.arguments.dropFirst().first == "small"
if !echoOnly {
  let small = (count: 100_000, size: 64)
  let smallPath = "/flood?count=\(small.count)&size=\(small.size)&kind=text"
  let (ourSmall, kitSmall) = try await receiveTimes(
    path: smallPath, count: small.count, bytes: small.count * small.size)
  print(
    "| receive 100k × 64 B text (msg/s) | \(Int(Double(small.count) / ourSmall)) | \(Int(Double(small.count) / kitSmall)) | \(String(format: kitSmall / ourSmall)) |"
  )

  // The same flood as CPU time (the client's own: the server's thread is taken out), beside
  // a C reader of the same frames, the machine's limit; best of `repetitions` each.
  let reader = try CReader.build()
  var cpu = (ours: Double.infinity, kit: Double.infinity, c: Double.infinity)
  for _ in 0..<repetitions {
    cpu.ours = min(
      cpu.ours, try await clientCPU { try await ours.receive(path: smallPath, count: small.count) })
    cpu.kit = min(
      cpu.kit, try await clientCPU { try await kit.receive(path: smallPath, count: small.count) })
    cpu.c = min(
      cpu.c, try CReader.cpuSeconds(reader, port: port, path: smallPath, count: small.count))
  }
  print(
    "| receive 100k × 64 B text, client CPU (ms) | \(String(format: cpu.ours * 1000)) | \(String(format: cpu.kit * 1000)) | \(String(format: cpu.kit / cpu.ours)) |"
  )
  print(
    "| baseline: a C reader of the same frames (parse + UTF-8), CPU (ms); RFC6455 ÷ C | \(String(format: cpu.c * 1000)) | – | \(String(format: cpu.ours / cpu.c)) |"
  )

  // `wsc` as a user runs it, startup and all (stdout to /dev/null by --quiet), when it was
  // built beside this benchmark.
  let wsc = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("wsc").path
  if FileManager.default.isExecutableFile(atPath: wsc) {
    var wscCPU = Double.infinity
    for _ in 0..<repetitions {
      wscCPU = min(
        wscCPU,
        try CReader.childCPUSeconds([
          wsc, "--quiet", "--no-deflate", "--count", "\(small.count)",
          "ws://127.0.0.1:\(port)\(smallPath)",
        ]))
    }
    print(
      "| the same received by `wsc --quiet` as a process, startup included, CPU (ms); ÷ C | \(String(format: wscCPU * 1000)) | – | \(String(format: wscCPU / cpu.c)) |"
    )
  }

  if smallOnly { exit(0) }

  let large = (count: 50, size: 4 << 20)
  let largePath = "/flood?count=\(large.count)&size=\(large.size)&kind=binary"
  let (ourLarge, kitLarge) = try await receiveTimes(
    path: largePath, count: large.count, bytes: large.count * large.size)
  let megabytes = Double(large.count * large.size) / 1e6
  print(
    "| receive 50 × 4 MiB binary (MB/s) | \(Int(megabytes / ourLarge)) | \(Int(megabytes / kitLarge)) | \(String(format: kitLarge / ourLarge)) |"
  )

}

let echoes = echoOnly ? 50_000 : 5_000
// Ten alternating blocks, so that neither client always runs first (on two shared cores the
// machine's state drifts over a run, and a fixed order would favour one side).
var ourBlocks: [Int64] = []
var kitBlocks: [Int64] = []
for _ in 0..<10 {
  ourBlocks += try await ours.echo(count: echoes / 10)
  kitBlocks += try await kit.echo(count: echoes / 10)
}
let ourTimes = ourBlocks.sorted()
let kitTimes = kitBlocks.sorted()
let ourMean = Double(ourTimes.reduce(0, +)) / Double(echoes) / 1000
let kitMean = Double(kitTimes.reduce(0, +)) / Double(echoes) / 1000
print(
  "| echo 32 B round trip, mean (µs) | \(String(format: ourMean)) | \(String(format: kitMean)) | \(String(format: kitMean / ourMean)) |"
)
print(
  "| echo 32 B round trip, p50 / p99 (µs) | \(String(format: percentile(ourTimes, 0.5))) / \(String(format: percentile(ourTimes, 0.99))) | \(String(format: percentile(kitTimes, 0.5))) / \(String(format: percentile(kitTimes, 0.99))) | \(String(format: percentile(kitTimes, 0.5) / percentile(ourTimes, 0.5))) |"
)

try await server.close()
try await serverGroup.shutdownGracefully()
try await clientGroup.shutdownGracefully()

extension String {
  /// Two decimals, without Foundation.
  init(format value: Double) {
    let hundredths = Int((value * 100).rounded())
    let fraction = abs(hundredths % 100)
    self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
