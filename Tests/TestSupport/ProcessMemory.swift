import Foundation

/// A process's resident memory, read from /proc while it runs.
public enum ProcessMemory {
  /// VmRSS in bytes, or nil once the process is gone.
  public static func residentBytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { return nil }
    return kilobytes * 1024
  }
}
