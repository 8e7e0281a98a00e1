import Foundation
import Synchronization
import TestSupport
import Testing

/// `wsc` as a user runs it: a real process, stdin in, stdout and stderr out, exit status.
@Suite("wsc end to end", .serialized)
struct WscTests {
  static var wscPath: String { BuiltProducts.path("wsc") }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func wsc(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
    -> Run
  {
    let child = try ChildProcess(Self.wscPath, arguments, environment: environment)
    try child.feed(stdin)
    // Read stderr alongside stdout so that neither pipe can fill up and block wsc.
    let errors = Task.detached { child.stderr.readDataToEndOfFile() }
    let out = child.stdout.readDataToEndOfFile()
    let status = child.wait()
    let err = awaitSync(errors)
    return Run(
      status: status, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  @Test func sendsStdinLinesAndPrintsReplies() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let run = try wsc(
      ["ws://127.0.0.1:\(server.port)/echo", "--count", "2"], stdin: "hello\nwörld\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "hello\nwörld\n")
  }

  @Test func binaryRepliesPrintAsBase64OrRaw() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let base64 = try wsc(
      ["ws://127.0.0.1:\(server.port)/echo", "--binary", "--count", "1"], stdin: "hi\n")
    #expect(base64.stdout == "aGk=\n")
    let raw = try wsc(
      ["ws://127.0.0.1:\(server.port)/echo", "--binary", "--raw", "--count", "1"], stdin: "hi\n")
    #expect(raw.stdout == "hi\n")
  }

  /// A peer's escape sequences (an OSC 52 clipboard write, a colour, a bidi override) reach
  /// a terminal escaped; a pipe gets the text as sent, and `--raw` asks for it on a terminal.
  @Test func textWithEscapeSequencesIsEscapedOnATerminalOnly() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let hostile = "%1B%5D52%3Bc%3BZXZpbA%3D%3D%07%1B%5B31mred%E2%80%AEtxt"
    let url = "ws://127.0.0.1:\(server.port)/say?text=\(hostile)"
    let piped = try wsc([url, "--count", "1"])
    #expect(piped.stdout == "\u{1B}]52;c;ZXZpbA==\u{7}\u{1B}[31mred\u{202E}txt\n")
    // On a terminal: `script` gives wsc a pseudo-terminal (its input held open meanwhile).
    func onTerminal(_ extra: String) throws -> String {
      let command =
        "sleep 3 | /usr/bin/script -qec '\(Self.wscPath) \(url) --count 1\(extra)' /dev/null"
      let run = try ProgramRun("/bin/sh", ["-c", command])
      return run.output
    }
    let shown = try onTerminal("")
    #expect(shown.contains("\\e]52;c;ZXZpbA==\\x07\\e[31mred\\u{202E}txt"), "\(shown)")
    #expect(!shown.contains("\u{1B}]52"), "no raw escape on the terminal")
    let raw = try onTerminal(" --raw")
    #expect(raw.contains("\u{1B}]52;c;ZXZpbA=="), "--raw: as received")
  }

  @Test func endOfInputClosesNormally() throws {
    let server = try PeerProcess(script: "echo_server.py")
    let run = try wsc(
      ["ws://127.0.0.1:\(server.port)/echo", "--quiet", "--verbose"], stdin: "one\n")
    #expect(run.status == 0)
    #expect(run.stderr.contains("connected") && run.stderr.contains("disconnected: closed"))
    #expect(run.stdout.isEmpty)
  }

  @Test func echoModeReturnsEveryMessageUntilTheServerCloses() throws {
    let server = try PeerProcess(script: "fault_server.py")
    let run = try wsc(["ws://127.0.0.1:\(server.port)/frame-with-101", "--echo", "--count", "1"])
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func echoModeRepliesToWhatCameBeforeAViolationThenFails() throws {
    let server = try PeerProcess(script: "fault_server.py")
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("wsc-violation-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    defer { try? FileManager.default.removeItem(at: report) }
    let run = try wsc([
      "ws://127.0.0.1:\(server.port)/echo-then-violation?report=\(report.path)", "--echo",
    ])
    #expect(run.status == 3, "\(run.stderr)")
    #expect(run.stderr.contains("reserved bits"))
    // The echo first, then the close with 1002; no pong: the ping came after the violation.
    #expect((try? String(contentsOf: report, encoding: .utf8)) == "1:before\n8:1002\n")
  }

  @Test func stdinIsHeldBackWhileTheServerDoesNotRead() throws {
    let server = try PeerProcess(script: "fault_server.py")
    let child = try ChildProcess(
      Self.wscPath, ["ws://127.0.0.1:\(server.port)/no-read", "--ping-interval", "0"])
    child.discardOutput()
    // Offer 64 MiB of lines without ever blocking: what wsc takes is what it buffered (plus
    // the kernel's socket and pipe buffers, a few MiB).
    let input = child.stdin.fileDescriptor
    #expect(fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK) == 0)
    let line = [UInt8](repeating: UInt8(ascii: "q"), count: 1023) + [0x0A]
    let offered = 64 << 20
    var taken = 0
    let deadline = Date().addingTimeInterval(6)
    var lastTaken = Date()
    // Until wsc has taken nothing for a second (it holds back), or took it all (it does not).
    while taken < offered, Date() < deadline, Date() < lastTaken + 1, child.poll() == nil {
      let wrote = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
      if wrote > 0 {
        taken += wrote
        if wrote < line.count { taken += writeRest(of: line, from: wrote, to: input) }
        lastTaken = Date()
      } else {
        usleep(10_000)
      }
    }
    #expect(child.poll() == nil, "wsc exited early")
    #expect(taken < 32 << 20, "wsc took \(taken >> 20) MiB of stdin from a server that reads none")
    child.stop()
  }

  /// Finishes a partly written line, so that the stream stays whole lines.
  private func writeRest(of line: [UInt8], from start: Int, to fd: Int32) -> Int {
    var offset = start
    while offset < line.count {
      let wrote = line[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if wrote > 0 { offset += wrote } else { usleep(1_000) }
    }
    return offset - start
  }

  @Test func failuresExitNonZeroWithOneClearLine() throws {
    let faults = try PeerProcess(script: "fault_server.py")
    let base = "ws://127.0.0.1:\(faults.port)"
    let refused = try wsc(["\(base)/status/404"])
    #expect(refused.status == 2)
    #expect(refused.stderr == "wsc: server refused the WebSocket upgrade with HTTP 404 Refused\n")
    let violation = try wsc(["\(base)/bad-frame"])
    #expect(violation.status == 3)
    #expect(
      violation.stderr.contains("protocol error") && violation.stderr.contains("close code 1002"))
    let timeout = try wsc(["\(base)/no-101", "--connect-timeout", "300ms"])
    #expect(timeout.status == 5)
    #expect(timeout.stderr.hasPrefix("wsc: timed out"))
    let badURL = try wsc(["http://example.com/"])
    #expect(badURL.status == 64)
    #expect(badURL.stderr.contains("unsupported URL scheme 'http'"))
    let badDuration = try wsc(["\(base)/echo", "--ping-interval", "soon"])
    #expect(badDuration.status == 64)
  }

  @Test func tlsFailureIsReported() throws {
    let server = try PeerProcess(script: "echo_server.py")
    // A plain server spoken to with TLS: the TLS handshake fails.
    let run = try wsc(["wss://127.0.0.1:\(server.port)/echo"])
    #expect(run.status == 4, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("wsc: TLS failed"))
  }

  @Test func nothingListeningIsAConnectFailure() throws {
    let run = try wsc(["ws://127.0.0.1:9/"])
    #expect(run.status == 6)
    #expect(run.stderr == "wsc: connection failed: 127.0.0.1:9: Connection refused\n")
  }
}

/// The value of a detached task, from synchronous code (the task does blocking I/O only).
func awaitSync<T: Sendable>(_ task: Task<T, Never>) -> T {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    let value = await task.value
    result.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}
