/// How a shared database's store behaves under load and faults (`--db-pool`,
/// `--db-call-limit`). SQLite, in the process, has no use for them.
public struct StoreOptions: Sendable {
  /// The most connections an instance opens to PostgreSQL, the listening one included.
  public var poolSize = 20
  /// The longest a store call may take: then it fails, its client tries again under its
  /// token, and its connection is closed so that the pool gets it back.
  public var callLimit: Duration = .seconds(10)
  /// Each notice's lag, for `/metrics`.
  public var noticeLag: @Sendable (Duration) -> Void = { _ in }

  public init() {}

  public static let poolSizes = 2...500
  public static let callLimits: ClosedRange<Duration> = .seconds(1)...(.seconds(300))
}
