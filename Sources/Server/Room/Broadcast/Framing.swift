/// How a socket takes its messages: as plain frames, or compressed (permessage-deflate
/// without server context takeover) for a peer whose window is `windowBits`. Sockets with
/// the same framing take the same bytes.
package enum Framing: Sendable, Hashable {
  case plain
  case deflate(windowBits: Int)
}
