#if canImport(Glibc)
  import Glibc
#endif

/// The process's open-file limit. Each connection is a descriptor; laptops and servers often
/// start processes with a soft limit of 1,024, far below what a room needs and below the hard
/// limit the process may raise it to itself.
package enum FileLimit {
  package struct Reading: Sendable {
    package var before: Int
    package var soft: Int
    package var hard: Int
  }

  /// Raises the soft limit to the hard one, and says what it got.
  package static func raiseToHardLimit() -> Reading {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
      return Reading(before: 1024, soft: 1024, hard: 1024)
    }
    let before = Int(clamping: limit.rlim_cur)
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    return Reading(
      before: before, soft: Int(clamping: limit.rlim_cur), hard: Int(clamping: limit.rlim_max))
  }
}
