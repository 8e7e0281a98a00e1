/// The fastest of `repetitions` runs, in seconds: on a shared machine the minimum is the
/// measurement least disturbed by other work.
func fastest(of repetitions: Int, _ body: () throws -> Int) rethrows -> (
  seconds: Double, checksum: Int
) {
  let clock = ContinuousClock()
  var best = Double.infinity
  var checksum = 0
  for _ in 0..<repetitions {
    let start = clock.now
    checksum = try body()
    let elapsed = clock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    best = min(best, seconds)
  }
  return (best, checksum)
}

/// One benchmark row: the same payload bytes through our engine, a baseline and memcpy.
struct Row {
  var name: String
  var messages: Int
  var payloadBytes: Int
  var ours: Double
  var nio: Double
  var memcpy: Double

  static let header =
    "| row | RFC6455 MB/s | RFC6455 msg/s | NIOWebSocket MB/s | vs NIO (×, >1 = faster) | memcpy MB/s | time ÷ memcpy |\n"
    + "|---|---:|---:|---:|---:|---:|---:|"

  var line: String {
    func rate(_ seconds: Double) -> String {
      format(Double(payloadBytes) / seconds / 1e6, digits: 0)
    }
    return
      "| \(name) | \(rate(ours)) | \(format(Double(messages) / ours, digits: 0)) | \(rate(nio)) | "
      + "\(format(nio / ours, digits: 2)) | \(rate(memcpy)) | \(format(ours / memcpy, digits: 2)) |"
  }
}

func format(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return "–" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  if digits == 0 { return String(Int(rounded)) }
  var text = String(rounded)
  let fraction = text.split(separator: ".").last?.count ?? 0
  if fraction < digits { text += String(repeating: "0", count: digits - fraction) }
  return text
}
