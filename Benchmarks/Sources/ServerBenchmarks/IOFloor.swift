import CFleetIO
import Foundation

/// The storm's input and output and nothing else (#52): what this machine's kernel charges the
/// server's one core for the storm's reads, answers, deltas and durable appends, with no
/// WebSocket, no JSON, no SQLite and no runtime. Not a bound for every design: what it costs
/// depends on how the bytes are sent, which `Design` varies.
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

  /// How the floor's server sends and reads: ours' way by default, or a cheaper one.
  struct Design: Sendable {
    /// `TCP_NODELAY` on every socket, as NIO's; off: Nagle may hold a small write for an ack.
    var noDelay = true
    /// Each answer waits for its socket's next delta and goes in the same `write`.
    var answersInDelta = false
    /// Sockets read only this often (a sleep, then every ready one), not as votes come.
    var readEvery: Duration?
    /// Votes made durable just before each delta, not after the linger.
    var commitAtTick = false

    /// Answers in the delta, sockets read every 10 ms, votes made durable at the delta.
    static let cheapest = Design(
      answersInDelta: true, readEvery: .milliseconds(10), commitAtTick: true)

    /// The serve mode's arguments for it.
    var arguments: [String] {
      (noDelay ? [] : ["nagle"]) + (answersInDelta ? ["answers-in-delta"] : [])
        + (readEvery.map { ["read-every=\($0 / .milliseconds(1))"] } ?? [])
        + (commitAtTick ? ["commit-at-tick"] : [])
    }

    init(
      noDelay: Bool = true, answersInDelta: Bool = false, readEvery: Duration? = nil,
      commitAtTick: Bool = false
    ) {
      self.noDelay = noDelay
      self.answersInDelta = answersInDelta
      self.readEvery = readEvery
      self.commitAtTick = commitAtTick
    }

    init(arguments: ArraySlice<String>) {
      noDelay = !arguments.contains("nagle")
      answersInDelta = arguments.contains("answers-in-delta")
      commitAtTick = arguments.contains("commit-at-tick")
      for argument in arguments where argument.hasPrefix("read-every=") {
        readEvery = .milliseconds(Double(argument.dropFirst(11)) ?? 10)
      }
    }
  }

  /// `ServerBenchmarks floor-serve window=MS log=PATH [DESIGN…]`; `window=0`: no deltas.
  static func serve(arguments: ArraySlice<String>) -> Never {
    var window = Duration.milliseconds(100)
    var logPath = "/dev/null"
    for argument in arguments {
      if argument.hasPrefix("window=") {
        window = .milliseconds(Int(argument.dropFirst(7)) ?? 100)
      }
      if argument.hasPrefix("log=") { logPath = String(argument.dropFirst(4)) }
    }
    var design = Design(arguments: arguments)
    // With no deltas, answers go alone and votes are made durable after the linger.
    if window == .zero { (design.answersInDelta, design.commitAtTick) = (false, false) }
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var address = Loopback.address(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    Loopback.withAddress(&address) { _ = bind(listener, $0, length) }
    listen(listener, 4096)
    Loopback.withAddress(&address) { _ = getsockname(listener, $0, &length) }
    let port = UInt16(bigEndian: address.sin_port)
    FileHandle.standardOutput.write(Data("listening on ws://127.0.0.1:\(port)/socket\n".utf8))
    // A write to an attendee gone at the end of a row fails; it does not end the process.
    signal(SIGPIPE, SIG_IGN)
    var server = Server(
      listener: listener, design: design, window: window,
      log: open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600))
    server.run()
  }

  /// The floor's one thread: its sockets, the votes waiting for their batch, the answers
  /// waiting for their delta.
  private struct Server {
    let listener: Int32
    let design: Design
    let window: Duration
    let log: Int32
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    let clock = ContinuousClock()
    var sockets: [Int32] = []
    /// Bytes of a vote already read, per socket; answers owed with its next delta.
    var partial: [Int] = []
    var owed: [Int] = []
    /// Sockets whose votes wait for the batch, one entry per vote, and the votes' bytes.
    var pending: [Int] = []
    var record: [UInt8] = []
    var firstPending = ContinuousClock.now
    /// A batch was written since the last delta.
    var written = false
    var input = [UInt8](repeating: 0, count: 65_536)
    var outgoing: [UInt8] = []
    let answer = [UInt8](repeating: UInt8(ascii: "A"), count: answerSize)
    let delta = [UInt8](repeating: UInt8(ascii: "D"), count: deltaSize)

    init(listener: Int32, design: Design, window: Duration, log: Int32) {
      (self.listener, self.design, self.window, self.log) = (listener, design, window, log)
      Loopback.watch(listener, tag: listenerTag, in: epoll)
    }

    mutating func run() -> Never {
      var events = [epoll_event](repeating: epoll_event(), count: 4096)
      var nextTick = clock.now + window
      while true {
        let untilTick = window > .zero ? nextTick - clock.now : .seconds(1)
        var wait = untilTick
        if !pending.isEmpty, !design.commitAtTick {
          wait = min(wait, firstPending + linger - clock.now)
        }
        let ready: Int32
        if let every = design.readEvery {
          // Asleep whatever comes, then every socket that has something read at once.
          let nap = max(.zero, min(every, wait))
          usleep(UInt32(nap / .microseconds(1)))
          ready = epoll_wait(epoll, &events, Int32(events.count), 0)
        } else {
          let milliseconds = Int32(max(0, wait / .milliseconds(1)).rounded(.up))
          ready = epoll_wait(epoll, &events, Int32(events.count), milliseconds)
        }
        for event in events[0..<max(0, Int(ready))] {
          if event.data.u64 == listenerTag { accept() } else { read(Int(event.data.u64)) }
        }
        let now = clock.now
        let tick = window > .zero && now >= nextTick
        if !pending.isEmpty,
          design.commitAtTick ? tick : pending.count >= fullBatch || now >= firstPending + linger
        {
          commit()
        }
        if tick {
          if written { sendDeltas() }
          nextTick += window
          if nextTick < now { nextTick = now + window }
        }
      }
    }

    mutating func accept() {
      while case let fd = Glibc.accept(listener, nil, nil), fd >= 0 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // As NIO's server sockets (ours): each write goes out at once, none held for an ack.
        var on: Int32 = design.noDelay ? 1 : 0
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        Loopback.watch(fd, tag: UInt64(sockets.count), in: epoll)
        sockets.append(fd)
        partial.append(0)
        owed.append(0)
      }
    }

    /// One read (level-triggered: what is left is reported again), its whole votes taken.
    mutating func read(_ index: Int) {
      let count = Glibc.read(sockets[index], &input, input.count)
      if count <= 0 {
        // Gone (or failed): out of the set, or a level-triggered set reports it forever.
        if count == 0 || errno != EAGAIN { epoll_ctl(epoll, EPOLL_CTL_DEL, sockets[index], nil) }
        return
      }
      partial[index] += count
      while partial[index] >= voteSize {
        partial[index] -= voteSize
        if pending.isEmpty { firstPending = clock.now }
        pending.append(index)
        // As many bytes as the vote, for the log: what they say does not matter here.
        record.append(contentsOf: input[0..<voteSize])
      }
    }

    /// The waiting votes made durable, then answered (or owed an answer with the delta).
    mutating func commit() {
      _ = record.withUnsafeBytes { Glibc.write(log, $0.baseAddress, $0.count) }
      fdatasync(log)
      for index in pending {
        if design.answersInDelta { owed[index] += 1 } else { send(answer, to: index) }
      }
      pending.removeAll(keepingCapacity: true)
      record.removeAll(keepingCapacity: true)
      written = true
    }

    mutating func sendDeltas() {
      for index in sockets.indices {
        guard owed[index] > 0 else {
          send(delta, to: index)
          continue
        }
        outgoing.removeAll(keepingCapacity: true)
        for _ in 0..<owed[index] { outgoing += answer }
        outgoing += delta
        owed[index] = 0
        send(outgoing, to: index)
      }
      written = false
    }

    /// A short write would cut the attendees' framing: the run fails rather than measure it.
    func send(_ bytes: [UInt8], to index: Int) {
      let sent = bytes.withUnsafeBytes { Glibc.write(sockets[index], $0.baseAddress, $0.count) }
      guard sent == bytes.count || (sent < 0 && errno == EPIPE) else {
        fatalError("floor: wrote \(sent) of \(bytes.count) bytes to socket \(index)")
      }
    }
  }
}
