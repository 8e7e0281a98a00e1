import CFleetIO
import Foundation

/// Sockets on 127.0.0.1 for the benchmarks' own epoll loops (`LeanFleet`, the storm's floor):
/// the address and its casts, a connection, a socket added to an epoll set.
enum Loopback {
  static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  static func withAddress<T>(
    _ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>) -> T
  ) -> T {
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
    }
  }

  /// `connect(2)` to 127.0.0.1:`port`: 0, or -1 with `errno` (`EINPROGRESS` for a socket
  /// that does not block).
  static func connect(_ fd: Int32, port: Int) -> Int32 {
    var address = address(port: UInt16(port))
    return withAddress(&address) {
      Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }

  /// `fd` in the epoll set `epoll`, its events reported with `tag`.
  static func watch(
    _ fd: Int32, tag: UInt64, in epoll: Int32, for events: UInt32 = EPOLLIN.rawValue
  ) {
    var event = epoll_event()
    event.events = events
    event.data.u64 = tag
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
  }
}
