import Foundation

/// The machine's limit for the small-message row: a plain C client that reads the same flood,
/// parses every frame header and validates every text payload's UTF-8 (strictly: no overlong
/// forms, no surrogates), with no events, queues or allocations. Compiled by the benchmark
/// with the system's `cc -O2`; its CPU time is the child's, from `wait4`.
enum CReader {
  static let source = #"""
    #include <arpa/inet.h>
    #include <netinet/in.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/socket.h>
    #include <unistd.h>

    static int valid_utf8(const unsigned char *s, size_t n) {
      size_t i = 0;
      while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t extra; unsigned int cp;
        if (c >= 0xC2 && c <= 0xDF) { extra = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { extra = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { extra = 3; cp = c & 0x07; }
        else return 0;
        for (size_t k = 1; k <= extra; k++) {
          if (i + k >= n || (s[i + k] & 0xC0) != 0x80) return 0;
          cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
        i += extra + 1;
      }
      return 1;
    }

    int main(int argc, char **argv) {
      if (argc != 4) return 1;
      int port = atoi(argv[1]);
      long count = atol(argv[3]);
      int fd = socket(AF_INET, SOCK_STREAM, 0);
      struct sockaddr_in address = {0};
      address.sin_family = AF_INET;
      address.sin_port = htons(port);
      address.sin_addr.s_addr = htonl(0x7F000001);
      if (connect(fd, (struct sockaddr *)&address, sizeof address)) return 2;
      char request[1024];
      int length = snprintf(request, sizeof request,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        argv[2], port);
      if (write(fd, request, length) != length) return 2;
      static unsigned char buffer[1 << 16];
      size_t have = 0;
      for (;;) {
        ssize_t got = read(fd, buffer + have, sizeof buffer - have);
        if (got <= 0) return 3;
        have += got;
        unsigned char *end = memmem(buffer, have, "\r\n\r\n", 4);
        if (!end) continue;
        if (strncmp((char *)buffer, "HTTP/1.1 101", 12)) return 4;
        size_t head = end - buffer + 4;
        memmove(buffer, buffer + head, have - head);
        have -= head;
        break;
      }
      long messages = 0;
      unsigned long long bytes = 0;
      while (messages < count) {
        size_t at = 0;
        while (have - at >= 2) {
          unsigned char first = buffer[at], second = buffer[at + 1];
          if (second & 0x80) return 5;
          size_t header = 2;
          unsigned long long size = second & 0x7F;
          if (size == 126) {
            if (have - at < 4) break;
            size = (buffer[at + 2] << 8) | buffer[at + 3];
            header = 4;
          } else if (size == 127) {
            return 6;  /* this reader is for small messages */
          }
          if (have - at - header < size) break;
          if ((first & 0x0F) == 1 && !valid_utf8(buffer + at + header, size)) return 7;
          messages++;
          bytes += size;
          at += header + size;
        }
        memmove(buffer, buffer + at, have - at);
        have -= at;
        if (messages >= count) break;
        ssize_t got = read(fd, buffer + have, sizeof buffer - have);
        if (got <= 0) return 8;
        have += got;
      }
      unsigned char close_frame[] = {0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8};
      if (write(fd, close_frame, sizeof close_frame) < 0) return 9;
      printf("%ld %llu\n", messages, bytes);
      return 0;
    }
    """#

  /// Compiles the reader into a temporary directory; its path.
  static func build() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qna-bench-reader-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let sourceFile = directory.appendingPathComponent("reader.c")
    let binary = directory.appendingPathComponent("reader").path
    try source.write(to: sourceFile, atomically: true, encoding: .utf8)
    let cc = Process()
    cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
    cc.arguments = ["-O2", "-D_GNU_SOURCE", "-o", binary, sourceFile.path]
    try cc.run()
    cc.waitUntilExit()
    guard cc.terminationStatus == 0 else { throw CReaderError.compileFailed }
    return binary
  }

  /// The reader's user + system CPU seconds for one receive of `count` messages.
  static func cpuSeconds(_ binary: String, port: Int, path: String, count: Int) throws -> Double {
    try childCPUSeconds([binary, "\(port)", path, "\(count)"])
  }

  /// A program's user + system CPU seconds, run to its end (it must exit 0).
  static func childCPUSeconds(_ arguments: [String]) throws -> Double {
    let binary = arguments[0]
    var child: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    guard posix_spawn(&child, binary, nil, nil, argv, environ) == 0 else {
      throw CReaderError.spawnFailed
    }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(child, &status, 0, &usage) == child, status == 0 else {
      throw CReaderError.failed(status)
    }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  static func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }
}

enum CReaderError: Error {
  case compileFailed
  case spawnFailed
  case failed(Int32)
}

/// This process's user + system CPU seconds so far (every thread).
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return CReader.seconds(usage.ru_utime) + CReader.seconds(usage.ru_stime)
}

/// The calling thread's CPU seconds so far.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
