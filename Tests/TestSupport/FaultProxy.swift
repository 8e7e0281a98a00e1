import Foundation
import Synchronization

/// A TCP proxy on a free loopback port that misbehaves on request, as Toxiproxy's toxics do:
/// the link between an instance and its database, made to stall, swallow, trickle or reset.
/// Each connection is a thread that moves bytes both ways; the fault in force is read every
/// 20 ms, so a change takes effect on connections already open.
public final class FaultProxy: Sendable {
  public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// Bytes pass.
    case none
    /// Nothing moves either way; bytes wait in the kernel's buffers and flow when it ends.
    case stall
    /// Nothing moves from the client to the server (queries wait); answers still come.
    case stallUpstream
    /// Nothing moves from the server to the client (answers wait).
    case stallDownstream
    /// A peer gone without a word: bytes both ways are read and thrown away, and no FIN or
    /// RST comes. The connections it touched are closed when the fault ends, as they can
    /// no longer be read in step.
    case halfOpen
    /// Bytes pass, this many a second each way, in small pieces.
    case trickle(bytesPerSecond: Int)

    public var description: String {
      switch self {
      case .none: "none"
      case .stall: "stall both ways"
      case .stallUpstream: "stall client to server"
      case .stallDownstream: "stall server to client"
      case .halfOpen: "half-open (bytes swallowed)"
      case .trickle(let rate): "trickle at \(rate) B/s"
      }
    }
  }

  public let port: Int
  private let target: Int
  private let listener: Int32
  private let state = Mutex<State>(State())

  private struct State {
    var fault = Fault.none
    var stopped = false
    /// Open connections: each side's descriptor, by connection number. Their descriptors
    /// are touched under this lock only: a pump removes its link here before it closes
    /// them, so no other thread ever shuts down a number the kernel has given to another.
    var links: [Int: (client: Int32, server: Int32)] = [:]
    /// Connections to end with an RST when their pump closes them.
    var resetting: Set<Int> = []
    var next = 0
    /// Connections that swallowed bytes while half-open, to close when it ends.
    var poisoned: Set<Int> = []
    var accepted = 0
  }

  /// Forwards to `127.0.0.1:target`.
  public init(target: Int) throws {
    self.target = target
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw FaultProxyError.socket }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 128) == 0 else {
      close(listener)
      throw FaultProxyError.socket
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        _ = getsockname(listener, $0, &length)
      }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    self.listener = listener
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// The fault from now on, on open connections and new ones.
  public func set(_ fault: Fault) {
    state.withLock { state in
      state.fault = fault
      guard fault != .halfOpen else { return }
      for (client, server) in state.poisoned.compactMap({ state.links[$0] }) {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
      }
      state.poisoned = []
    }
  }

  public var fault: Fault { state.withLock { $0.fault } }

  /// Connections open now, and accepted since the start.
  public var connections: (open: Int, accepted: Int) {
    state.withLock { ($0.links.count, $0.accepted) }
  }

  /// Resets every open connection (an RST to both sides, no FIN first, as a crashed
  /// middlebox would send); new connections are accepted as before.
  public func resetAll() {
    state.withLock { state in
      for (number, (client, server)) in state.links {
        state.resetting.insert(number)
        // Wakes the pump (its reads end), which closes both sides with an RST.
        shutdown(client, Int32(SHUT_RD))
        shutdown(server, Int32(SHUT_RD))
      }
    }
  }

  /// Stops accepting and resets every connection.
  public func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    resetAll()
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if state.withLock({ $0.stopped }) {
        if client >= 0 { close(client) }
        break
      }
      if client < 0 {
        // Out of descriptors, or a connection that went before it was taken: go on.
        if errno != EINTR { usleep(10_000) }
        continue
      }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = Self.loopback(port: target)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        // Nobody behind: the client is refused as it would be, with an RST.
        Self.lingerNot(client)
        close(client)
        close(server)
        continue
      }
      let number = state.withLock { state in
        defer { state.next += 1 }
        state.links[state.next] = (client, server)
        state.accepted += 1
        return state.next
      }
      let thread = Thread { [self] in pump(number, client, server) }
      thread.start()
    }
    close(listener)
  }

  /// Moves bytes between the two sides until either closes.
  private func pump(_ number: Int, _ client: Int32, _ server: Int32) {
    defer {
      let reset = state.withLock { state in
        state.links[number] = nil
        state.poisoned.remove(number)
        return state.resetting.remove(number) != nil
      }
      if reset {
        Self.lingerNot(client)
        Self.lingerNot(server)
      }
      close(client)
      close(server)
    }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let (fault, reset) = state.withLock { ($0.fault, $0.resetting.contains(number)) }
      if reset { return }
      let upstream = fault != .stall && fault != .stallUpstream
      let downstream = fault != .stall && fault != .stallDownstream
      var fds = [
        pollfd(fd: client, events: upstream ? Int16(POLLIN) : 0, revents: 0),
        pollfd(fd: server, events: downstream ? Int16(POLLIN) : 0, revents: 0),
      ]
      let ready = poll(&fds, 2, 20)
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      for (index, (from, to)) in [(client, server), (server, client)].enumerated() {
        let revents = Int32(fds[index].revents)
        if revents & Int32(POLLNVAL) != 0 { return }
        guard revents & Int32(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
        let limit: Int
        if case .trickle(let rate) = fault {
          limit = max(1, min(rate / 10, buffer.count))
        } else {
          limit = buffer.count
        }
        let count = recv(from, &buffer, limit, 0)
        if count <= 0 { return }
        if fault == .halfOpen {
          _ = state.withLock { $0.poisoned.insert(number) }
          continue
        }
        guard Self.sendAll(to, buffer, count) else { return }
        if case .trickle(let rate) = fault {
          usleep(useconds_t(1_000_000 * count / max(rate, 1)))
        }
      }
    }
  }

  private static func sendAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
    var sent = 0
    while sent < count {
      let result = buffer.withUnsafeBytes {
        send(fd, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
      }
      if result < 0, errno == EINTR { continue }
      if result <= 0 { return false }
      sent += result
    }
    return true
  }

  /// A zero linger time: the `close` that follows sends an RST rather than a FIN.
  private static func lingerNot(_ fd: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return address
  }
}

public enum FaultProxyError: Error {
  case socket
}
