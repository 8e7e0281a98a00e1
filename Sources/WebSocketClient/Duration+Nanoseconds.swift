extension Duration {
  /// The whole duration in nanoseconds (what NIO's and the random APIs take).
  var nanoseconds: Int64 {
    components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
  }
}
