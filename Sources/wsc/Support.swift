import CommandLineValues
import RFC6455
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Lets stdin lines wait while there is no open connection.
actor OpenGate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func close() { isOpen = false }

  func waitUntilOpen() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}

/// Received messages on stdout: text as is, binary as base64 or raw, one per line.
struct MessageOutput {
  let raw: Bool
  let quiet: Bool
  /// Text goes to a terminal, which would act on the escape sequences a peer sends: it is
  /// shown escaped (`PrintableText`) unless `--raw` asks for it as received.
  var escapesText = isatty(STDOUT_FILENO) == 1

  func write(_ message: WebSocketMessage) {
    guard !quiet else { return }
    var bytes: [UInt8]
    if message.kind == .binary && !raw {
      bytes = Array(Data(message.data).base64EncodedString().utf8)
    } else if message.kind == .text, escapesText, !raw {
      bytes = Array(PrintableText.escaped(String(decoding: message.data, as: UTF8.self)).utf8)
    } else {
      bytes = message.data
    }
    bytes.append(0x0A)
    StandardStream.output.write(bytes: bytes)
  }
}

enum ExitStatus: Int32 {
  case success = 0
  case abnormal = 1
  case refused = 2
  case protocolError = 3
  case tls = 4
  case timeout = 5
  case connectFailed = 6
  case usage = 64

  init(for disconnect: Disconnect) {
    switch disconnect {
    case .userClosed, .reconnectRequested: self = .success
    case .refused, .handshakeFailed, .invalidRequest: self = .refused
    case .connectFailed(.proxy): self = .refused  // a proxy's refusal is a refusal too
    case .tlsFailed: self = .tls
    case .timedOut, .pingTimeout: self = .timeout
    case .connectFailed: self = .connectFailed
    case .closed(let status):
      if case .protocolViolation = status.error {
        self = .protocolError
      } else if [.normalClosure, .goingAway].contains(status.code) {
        self = .success
      } else {
        self = .abnormal
      }
    }
  }
}

enum Diagnostics {
  /// One line on stderr; a server's words in it (a close reason) arrive escaped.
  static func note(_ line: String) {
    StandardStream.error.write("wsc: \(PrintableText.escaped(line))\n")
  }

  static func fail(_ line: String, status: ExitStatus) -> Never {
    note(line)
    exit(status.rawValue)
  }

  static func message(for disconnect: Disconnect) -> String {
    switch disconnect {
    case .closed(let status):
      if case .protocolViolation(let violation) = status.error {
        return "protocol error: \(violation) (close code \(violation.closeCode.rawValue))"
      }
      if status.code == .abnormalClosure {
        return "connection lost without a close frame (1006)"
      }
      return "server closed the connection with \(status.code)"
        + (status.reason.isEmpty ? "" : ": \(status.reason)")
    default:
      return disconnect.description
    }
  }
}
