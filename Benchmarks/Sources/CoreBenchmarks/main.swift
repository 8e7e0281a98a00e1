import NIOCore
import NIOWebSocket
import RFC6455

#if canImport(Glibc)
  import Glibc
#endif

// Decode and encode throughput of the RFC 6455 core, side by side with SwiftNIO's
// NIOWebSocket and a plain memcpy of the same payload bytes, all measured in this run.

let decodeWorkloads = [
  Workload(
    name: "decode 100k × 64 B text", kind: .text, messageCount: 100_000,
    payload: Workload.text(count: 64), fragments: 1),
  Workload(
    name: "decode 20k × 4 KiB text", kind: .text, messageCount: 20_000,
    payload: Workload.text(count: 4096), fragments: 1),
  Workload(
    name: "decode 100 × 4 MiB binary", kind: .binary, messageCount: 100,
    payload: Workload.binary(count: 4 << 20), fragments: 1),
  Workload(
    name: "decode 20k × 4 KiB dense non-ASCII text (extra row)", kind: .text, messageCount: 20_000,
    payload: Workload.denseText(count: 4096), fragments: 1),
  Workload(
    name: "decode 20k × 4 KiB text in 8 fragments", kind: .text, messageCount: 20_000,
    payload: Workload.text(count: 4096), fragments: 8),
]

let encodeWorkloads = [
  Workload(
    name: "encode+mask 100k × 64 B text", kind: .text, messageCount: 100_000,
    payload: Workload.text(count: 64), fragments: 1),
  Workload(
    name: "encode+mask 20k × 4 KiB text", kind: .text, messageCount: 20_000,
    payload: Workload.text(count: 4096), fragments: 1),
  Workload(
    name: "encode+mask 100 × 4 MiB binary", kind: .binary, messageCount: 100,
    payload: Workload.binary(count: 4 << 20), fragments: 1),
]

let repetitions = 5
var rows: [Row] = []
// `CoreBenchmarks WORD` runs only the rows whose name contains WORD.
let filter = CommandLine.arguments.dropFirst().first
func selected(_ workload: Workload) -> Bool { filter.map { workload.name.contains($0) } ?? true }
// BENCH_ONLY_OURS=1 skips the baselines, for profiling our side alone.
let onlyOurs = getenv("BENCH_ONLY_OURS") != nil

/// Measures one row: our engine, then (unless profiling) NIO and memcpy on the same payload.
func measure(
  _ workload: Workload, ours: () -> Int, nio: () throws -> Int, checksumsMustMatch: Bool
) throws -> Row {
  let ourRun = fastest(of: repetitions, ours)
  var row = Row(
    name: workload.name, messages: workload.messageCount, payloadBytes: workload.payloadBytes,
    ours: ourRun.seconds, nio: .nan, memcpy: .nan)
  if onlyOurs { return row }
  let nioRun = try fastest(of: repetitions, nio)
  precondition(!checksumsMustMatch || ourRun.checksum == nioRun.checksum, "engines disagree")
  row.nio = nioRun.seconds
  row.memcpy =
    fastest(of: repetitions) {
      MemcpyBaseline.copy(workload.payload, count: workload.messageCount)
    }.seconds
  return row
}

for workload in decodeWorkloads where selected(workload) {
  let reads = workload.reads()
  let buffers = reads.map { ByteBuffer(bytes: $0) }
  rows.append(
    try measure(
      workload, ours: { OurEngine.decode(reads) }, nio: { try NIOBaseline.decode(buffers) },
      checksumsMustMatch: true))
}

for workload in encodeWorkloads where selected(workload) {
  let buffer = ByteBuffer(bytes: workload.payload)
  let opcode: WebSocketOpcode = workload.kind == .text ? .text : .binary
  let message = WebSocketMessage(kind: workload.kind, data: workload.payload)
  let text = message.text ?? ""
  rows.append(
    try measure(
      workload, ours: { OurEngine.encode(message, text: text, count: workload.messageCount) },
      nio: { try NIOBaseline.encode(buffer, opcode: opcode, count: workload.messageCount) },
      checksumsMustMatch: true))
}

print(
  "RFC 6455 core vs SwiftNIO NIOWebSocket vs memcpy (same payload bytes, 64 KiB reads, best of \(repetitions))"
)
print(
  "RFC6455 decodes through ClientConnection and validates UTF-8; NIO decodes frames and aggregates fragments."
)
print(Row.header)
for row in rows { print(row.line) }
