import CFleetIO
import Foundation
import QnA
import RFC6455
import Synchronization
import ZlibCompression

/// Attendees without a runtime per socket: one thread, one epoll set, and the project's
/// sans-I/O client core (`ClientConnection`, permessage-deflate offered as `qna` offers it)
/// for each socket. Ten thousand `WebSocketClient`s, each with its tasks and streams, cost
/// this machine's two cores more than the server's fan-out does, so their arrival times
/// measure the fleet. Here an arrival is the kernel's own receive time of the bytes
/// (`SO_TIMESTAMPNS`): when they reached the attendee's socket, however long this one thread
/// then takes to read and decode ten thousand of them.
final class LeanFleet: AnswerFleet, Sendable {
  private struct Socket {
    var fd: Int32 = -1
    var connection: ClientConnection
    var opened = false
    var closed = false
  }

  private struct Loop {
    var sockets: [Socket]
    var members: [RoomFleet.Member]
    var nextToConnect = 0
    /// Sockets connecting or upgrading: bounded, so that the server's listen queue never
    /// overflows into SYN retries (which would measure the kernel's 1 s retry timer).
    var upgrading = 0
    /// Until the first `resetCounters`: deltas are decoded for the questions they bring.
    var collecting = true
    /// The votes sent (`vote`), by token, answered or not.
    var votes: [UUID: RoomFleet.CastVote] = [:]
  }

  private static let maxUpgrading = 128
  private let state: Mutex<Loop>
  private let running = Atomic<Bool>(false)
  private let finished = Mutex<Bool>(false)
  private let epoll: Int32
  private let ports: [Int]
  private let counts: Bool
  private let origin = ContinuousClock.now

  init(size: Int, ports: [Int], counts: Bool) throws {
    self.ports = ports
    self.counts = counts
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    let sockets = try (0..<size).map { index in
      let url = try WebSocketURL("ws://127.0.0.1:\(ports[index % ports.count])/socket")
      return Socket(
        connection: try ClientConnection(
          url: url, options: HandshakeOptions(deflate: DeflateOffer()),
          compressors: ZlibCompressors()))
    }
    state = Mutex(Loop(sockets: sockets, members: (0..<size).map { _ in RoomFleet.Member() }))
  }

  func start() {
    running.store(true, ordering: .sequentiallyConsistent)
    let thread = Thread { [self] in
      // The fleet stands in for phones across a network, which take nothing from the
      // server's CPU: where they share cores, it runs only when the server does not want
      // them (pinned apart, as in the storm, it yields to this process's own tasks alone).
      _ = fleet_run_when_idle()
      var events = [epoll_event](repeating: epoll_event(), count: 16_384)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while running.load(ordering: .sequentiallyConsistent) {
        state.withLock { connectMore(&$0) }
        // Polled every 2 ms, never waited on: a reader asleep in `epoll_wait` is woken by
        // the server's own send on loopback, at the server's cost, which a phone across
        // the network never charges it. The arrival times are the kernel's, not the poll's.
        let ready = epoll_wait(epoll, &events, Int32(events.count), 0)
        let now = ContinuousClock.now
        // The lock taken for one socket at a time: a vote waits for one socket's reading,
        // not for ten thousand (this thread may be set aside while it holds it).
        for event in events[0..<max(0, Int(ready))] {
          state.withLock { handle(Int(event.data.u64), at: now, &$0, buffer: &buffer) }
        }
        usleep(2000)
      }
      finished.withLock { $0 = true }
    }
    thread.stackSize = 1 << 22
    thread.start()
  }

  private func connectMore(_ loop: inout Loop) {
    while loop.upgrading < Self.maxUpgrading, loop.nextToConnect < loop.sockets.count {
      let index = loop.nextToConnect
      loop.nextToConnect += 1
      loop.upgrading += 1
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      _ = Loopback.connect(fd, port: ports[index % ports.count])
      _ = fleet_enable_timestamps(fd)
      loop.sockets[index].fd = fd
      Loopback.watch(
        fd, tag: UInt64(index), in: epoll, for: EPOLLIN.rawValue | EPOLLOUT.rawValue)
    }
  }

  private func handle(
    _ index: Int, at now: ContinuousClock.Instant, _ loop: inout Loop, buffer: inout [UInt8]
  ) {
    let fd = loop.sockets[index].fd
    guard !loop.sockets[index].closed else { return }
    if !loop.sockets[index].opened, loop.sockets[index].connection.state == .connecting,
      loop.sockets[index].connection.hasOutbound
    {
      // Connected: send the upgrade request, then wait for reads only.
      flush(index, &loop)
      var event = epoll_event()
      event.events = EPOLLIN.rawValue
      event.data.u64 = UInt64(index)
      epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event)
      return
    }
    while true {
      var stamp = timespec()
      let count = buffer.withUnsafeMutableBytes {
        fleet_receive(fd, $0.baseAddress, $0.count, &stamp)
      }
      if count < 0, errno == EAGAIN { break }
      guard count > 0 else {
        close(index, &loop)
        return
      }
      let events = buffer.withUnsafeBytes {
        loop.sockets[index].connection.receive(
          UnsafeRawBufferPointer(rebasing: $0[0..<count]), now: now - origin)
      }
      let arrived = stamp.tv_sec == 0 ? now : Self.instant(of: stamp)
      for event in events { apply(event, index, at: arrived, &loop) }
      if loop.sockets[index].closed { return }
    }
    flush(index, &loop)
  }

  private func apply(
    _ event: WebSocketEvent, _ index: Int, at now: ContinuousClock.Instant, _ loop: inout Loop
  ) {
    switch event {
    case .message(let message):
      loop.members[index].bytes += message.data.count
      if let quick = QuickRead(message.data) {
        loop.members[index].record(quick, at: now)
        return
      }
      if let answer = QuickRead.voteAnswer(message.data) {
        loop.votes.answer(answer.token, success: answer.success, seq: answer.seq)
        return
      }
      // Once the questions are known, a delta is read for its sequence number only.
      if !loop.collecting, let to = QuickRead.deltaEnd(message.data) {
        loop.members[index].deltas.append((to, now))
        return
      }
      switch try? WireCodec().decode(message.data) {
      case .handshake(let body):
        loop.members[index].connectionID = body.id
        loop.members[index].reconnects += 1
        if !loop.sockets[index].opened {
          loop.sockets[index].opened = true
          loop.upgrading -= 1
        }
        let join = Join(
          id: body.id, attendee: loop.members[index].attendee, counts: counts ? true : nil)
        try? loop.sockets[index].connection.send(binary: WireCodec().encode(.join(join)))
        loop.members[index].joinSentAt = now
      case .room(let page):
        loop.members[index].questionIDs += page.questions.map(\.id)
      case .roomDelta(let delta):
        loop.members[index].deltas.append((delta.to, now))
        loop.members[index].questionIDs += delta.questions.map(\.id)
      case .questionResponse(let response): loop.members[index].ownQuestion = response.id
      case .voteResponse(let response):
        loop.votes.answer(response.token, success: response.success, seq: response.seq)
      default: break
      }
    case .closed: close(index, &loop)
    case .opened, .ping, .pong: break
    }
  }

  /// A CLOCK_REALTIME reading as an instant of the continuous clock, by its distance from now.
  private static func instant(of stamp: timespec) -> ContinuousClock.Instant {
    var real = timespec()
    clock_gettime(CLOCK_REALTIME, &real)
    let ago =
      Duration.seconds(real.tv_sec - stamp.tv_sec) + .nanoseconds(real.tv_nsec - stamp.tv_nsec)
    return ContinuousClock.now - ago
  }

  /// Writes what the core queued. A few hundred bytes to a socket with an empty send
  /// buffer: a short write does not happen here, and would end the member.
  private func flush(_ index: Int, _ loop: inout Loop) {
    for chunk in loop.sockets[index].connection.takeOutbound() {
      let written = chunk.withUnsafeBytes {
        write(loop.sockets[index].fd, $0.baseAddress, $0.count)
      }
      if written != chunk.count { close(index, &loop) }
    }
  }

  private func close(_ index: Int, _ loop: inout Loop) {
    guard !loop.sockets[index].closed else { return }
    loop.sockets[index].closed = true
    if !loop.sockets[index].opened { loop.upgrading -= 1 }
    epoll_ctl(epoll, EPOLL_CTL_DEL, loop.sockets[index].fd, nil)
    Glibc.close(loop.sockets[index].fd)
  }

  var snapshot: [RoomFleet.Member] { state.withLock { $0.members } }

  func resetCounters() {
    state.withLock { loop in
      loop.collecting = false
      for index in loop.members.indices {
        loop.members[index].bytes = 0
        loop.members[index].deltas = []
      }
    }
  }

  func ask(_ index: Int) async {
    state.withLock { loop in
      guard let id = loop.members[index].connectionID else { return }
      let bytes = WireCodec().encode(
        .newQuestion(NewQuestion(id: id, content: "Room question \(index)", token: UUID())))
      try? loop.sockets[index].connection.send(binary: bytes)
      flush(index, &loop)
    }
  }

  /// Member `index` votes for `question`, recording when it was written.
  func vote(_ index: Int, for question: UUID) async {
    state.withLock { loop in
      // (A socket the server dropped stays closed: its votes would wait for an answer.)
      guard let id = loop.members[index].connectionID, !loop.sockets[index].closed else {
        return
      }
      let token = UUID()
      loop.votes[token] = RoomFleet.CastVote(sentAt: ContinuousClock.now)
      let bytes = WireCodec().encode(
        .vote(Vote(id: id, question: question, up: true, token: token)))
      try? loop.sockets[index].connection.send(binary: bytes)
      flush(index, &loop)
    }
  }

  var castVotes: [RoomFleet.CastVote] { state.withLock { Array($0.votes.values) } }

  func stop() async {
    running.store(false, ordering: .sequentiallyConsistent)
    while !finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
    state.withLock { loop in
      for index in loop.sockets.indices where loop.sockets[index].fd >= 0 { close(index, &loop) }
    }
    Glibc.close(epoll)
  }
}

/// What the scale-out rows need of a fleet: joins, questions, and each delta's arrival.
protocol AnswerFleet: Sendable {
  func start()
  var snapshot: [RoomFleet.Member] { get }
  func resetCounters()
  func ask(_ index: Int) async
  func stop() async
}

extension AnswerFleet {
  /// Polls until `done` holds for every member (or `seconds` pass); false on timeout.
  func wait(seconds: Double, until done: (RoomFleet.Member) -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if snapshot.allSatisfy(done) { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return false
  }
}

extension RoomFleet: AnswerFleet {}

/// What a vote storm needs of a fleet besides: votes, and their answers.
protocol StormFleet: AnswerFleet {
  func vote(_ index: Int, for question: UUID) async
  var castVotes: [RoomFleet.CastVote] { get }
}

extension RoomFleet: StormFleet {}
extension LeanFleet: StormFleet {}
