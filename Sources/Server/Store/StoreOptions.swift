/// How the store behaves under load and faults: a shared database's pool and time limit
/// (`--db-pool`, `--db-call-limit`; SQLite, in the process, has no use for them), and how
/// votes are written.
public struct StoreOptions: Sendable {
  /// The most connections an instance opens to PostgreSQL, the listening one included.
  public var poolSize = 20
  /// The longest a store call may take: then it fails, its client tries again under its
  /// token, and its connection is closed so that the pool gets it back.
  public var callLimit: Duration = .seconds(10)
  /// Each notice's lag, for `/metrics`.
  public var noticeLag: @Sendable (Duration) -> Void = { _ in }

  /// Each vote in a transaction of its own, as before votes were batched: the benchmarks'
  /// baseline (`ServerBenchmarks storm`), never a server's setting.
  public var votesOneByOne = false
  /// How long a storm's next batch of votes waits for more: the room's window
  /// (`StoreCommits.votesLinger`), set by the server from its own.
  public var votesLinger = StoreCommits.votesLinger

  public init() {}

  public static let poolSizes = 2...500
  public static let callLimits: ClosedRange<Duration> = .seconds(1)...(.seconds(300))
}
