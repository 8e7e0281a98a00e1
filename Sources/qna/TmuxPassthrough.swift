import Foundation

/// Whether the tmux that `qna` runs in passes escape sequences through to the terminal
/// (`set -g allow-passthrough on`): asked of tmux itself, once, for `--notify`.
enum TmuxPassthrough {
  static func isOn() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // The option as the pane sees it; tmux finds the pane from $TMUX and $TMUX_PANE.
    process.arguments = ["tmux", "display-message", "-p", "#{allow-passthrough}"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    // "1" (on) or "2"/"all" in newer versions; "0", "off" or nothing when it is off.
    return process.terminationStatus == 0 && !["", "0", "off"].contains(value)
  }
}
