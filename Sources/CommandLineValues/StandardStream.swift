#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stdout and stderr as the programs write them: whole, with write(2), without Foundation's
/// FileHandle (which would link all of Foundation and ICU's 34 MB into qna and wsc).
public enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  public func write(_ text: String) {
    write(bytes: Array(text.utf8))
  }

  public func write(bytes: [UInt8]) {
    Self.write(bytes: bytes, to: rawValue)
  }

  /// Every byte, across short writes, signals and a non-blocking descriptor's waits. A reader
  /// gone (EPIPE) ends the program as SIGPIPE would, even where SIGPIPE is ignored; another
  /// error (a full disk) exits 74, as FileHandle's failed write ended it too: a script must
  /// not take half a JSON line for the whole.
  package static func write(
    bytes: [UInt8], to descriptor: Int32,
    writing: (Int32, UnsafeRawPointer, Int) -> Int = { systemWrite($0, $1, $2) }
  ) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = writing(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written >= 0 {
          offset += written
          continue
        }
        switch errno {
        case EINTR: continue
        case EAGAIN:
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, -1)
        case EPIPE:
          signal(SIGPIPE, SIG_DFL)
          raise(SIGPIPE)
          exit(141)
        default:
          exit(74)
        }
      }
    }
  }
}

private let systemWrite = write
