import CFleetIO
import Foundation

/// The storm's input and output and nothing else (#52): what this machine's kernel charges the
/// server's one core for the storm's reads, answers, deltas and durable appends, with no
/// WebSocket, no JSON, no SQLite and no runtime. A floor: no server that sends the same bytes
/// on the same sockets pays less, so a target below it is a target for the kernel.
///
/// The server (`floor-serve`, pinned to core 0 like ours) is one thread on one epoll set. A
/// vote is `voteSize` bytes; it is appended to a log file, and a batch of them is made durable
/// with one `fdatasync` the way ours batches its commits (`linger` after the first, or
/// `fullBatch` waiting), then each is answered with `answerSize` bytes. Every `window` in which
/// a batch was written, `deltaSize` bytes go to every socket. The sizes are ours at 2,000
/// attendees: a vote frame, its answer, and a compressed compact delta.
enum IOFloor {
  static let voteSize = 150
  static let answerSize = 100
  static let deltaSize = 360
  static let linger: Duration = .milliseconds(15)
  static let fullBatch = 64
  private static let listenerTag = UInt64.max

  /// `ServerBenchmarks floor-serve window=MS log=PATH`; `window=0`: no deltas at all.
  static func serve(arguments: ArraySlice<String>) -> Never {
    var window = Duration.milliseconds(100)
    var logPath = "/dev/null"
    for argument in arguments {
      if argument.hasPrefix("window=") {
        window = .milliseconds(Int(argument.dropFirst(7)) ?? 100)
      }
      if argument.hasPrefix("log=") { logPath = String(argument.dropFirst(4)) }
    }
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withSocketAddress(&address) { _ = bind(listener, $0, length) }
    listen(listener, 4096)
    withSocketAddress(&address) { _ = getsockname(listener, $0, &length) }
    let port = UInt16(bigEndian: address.sin_port)
    FileHandle.standardOutput.write(Data("listening on ws://127.0.0.1:\(port)/socket\n".utf8))

    // A write to an attendee gone at the end of a row fails; it does not end the process.
    signal(SIGPIPE, SIG_IGN)
    let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    watch(listener, tag: listenerTag, in: epoll)
    var sockets: [Int32] = []
    var partial: [Int] = []
    var events = [epoll_event](repeating: epoll_event(), count: 4096)
    var input = [UInt8](repeating: 0, count: 65_536)
    let answer = [UInt8](repeating: UInt8(ascii: "A"), count: answerSize)
    let delta = [UInt8](repeating: UInt8(ascii: "D"), count: deltaSize)
    var pending: [Int32] = []
    var record: [UInt8] = []
    var firstPending = ContinuousClock.now
    var written = false
    let clock = ContinuousClock()
    var nextTick = clock.now + window

    while true {
      let now = clock.now
      var wait = window > .zero ? nextTick - now : .seconds(1)
      if !pending.isEmpty { wait = min(wait, firstPending + linger - now) }
      let ready = epoll_wait(
        epoll, &events, Int32(events.count), Int32(max(0, wait / .milliseconds(1)).rounded(.up)))
      for event in events[0..<max(0, Int(ready))] {
        if event.data.u64 == listenerTag {
          while case let fd = accept(listener, nil, nil), fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // As NIO's server sockets (ours): each write goes out at once, none held for an ack.
            var on: Int32 = 1
            setsockopt(
              fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            watch(fd, tag: UInt64(sockets.count), in: epoll)
            sockets.append(fd)
            partial.append(0)
          }
          continue
        }
        let index = Int(event.data.u64)
        while true {
          let count = read(sockets[index], &input, input.count)
          if count <= 0 {
            // Gone (or failed): out of the set, or a level-triggered set reports it forever.
            if count == 0 || errno != EAGAIN {
              epoll_ctl(epoll, EPOLL_CTL_DEL, sockets[index], nil)
            }
            break
          }
          partial[index] += count
          while partial[index] >= voteSize {
            partial[index] -= voteSize
            if pending.isEmpty { firstPending = clock.now }
            pending.append(sockets[index])
            // As many bytes as the vote, for the log: what they say does not matter here.
            record.append(contentsOf: input[0..<voteSize])
          }
        }
      }
      if !pending.isEmpty, pending.count >= fullBatch || clock.now >= firstPending + linger {
        _ = record.withUnsafeBytes { write(log, $0.baseAddress, $0.count) }
        fdatasync(log)
        for fd in pending { _ = answer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        pending.removeAll(keepingCapacity: true)
        record.removeAll(keepingCapacity: true)
        written = true
      }
      if window > .zero, clock.now >= nextTick {
        if written {
          for fd in sockets { _ = delta.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
          written = false
        }
        nextTick += window
        if nextTick < clock.now { nextTick = clock.now + window }
      }
    }
  }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  static func withSocketAddress<T>(
    _ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>) -> T
  ) -> T {
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
    }
  }

  static func watch(_ fd: Int32, tag: UInt64, in epoll: Int32) {
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.u64 = tag
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
  }
}
