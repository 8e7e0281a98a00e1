import Foundation

/// Whether the tmux that `qna` runs in passes escape sequences through to the terminal
/// (`set -g allow-passthrough on`): asked of tmux itself, once, for `--notify`.
enum TmuxPassthrough {
  /// How long tmux has to answer: a wedged tmux server must not hold up qna's start.
  static let limit: DispatchTimeInterval = .seconds(1)

  static func isOn() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // The option as the pane sees it; tmux finds the pane from $TMUX and $TMUX_PANE.
    process.arguments = ["tmux", "display-message", "-p", "#{allow-passthrough}"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    guard (try? process.run()) != nil else { return false }
    guard ended.wait(timeout: .now() + limit) == .success else {
      process.terminate()
      return false
    }
    // A few bytes, long since in the pipe.
    let text = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // "1" (on) or "2"/"all" in newer versions; "0", "off" or nothing when it is off.
    return process.terminationStatus == 0 && !["", "0", "off"].contains(value)
  }
}
