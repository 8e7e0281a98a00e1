import Foundation

/// Round-trip samples and their percentiles, for the latency measurements the end-to-end
/// tests print and `make bench` reports.
public struct LatencySamples: Sendable {
  public private(set) var milliseconds: [Double] = []

  public init() {}

  /// Times `trigger` followed by `observed` (which returns once the effect is seen).
  public mutating func measure(
    _ trigger: () async throws -> Void, until observed: () async throws -> Void
  ) async rethrows {
    let start = ContinuousClock.now
    try await trigger()
    try await observed()
    milliseconds.append((ContinuousClock.now - start) / .milliseconds(1))
  }

  /// The `fraction` percentile (nearest rank), in milliseconds.
  public func percentile(_ fraction: Double) -> Double {
    guard !milliseconds.isEmpty else { return .nan }
    let sorted = milliseconds.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  public var summary: String {
    String(
      format: "p50 %.1f ms, p99 %.1f ms over %d", percentile(0.5), percentile(0.99),
      milliseconds.count)
  }
}
