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

  /// Every byte, across short writes and signals; a closed or broken descriptor ends it.
  static func write(bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}

private let systemWrite = write
