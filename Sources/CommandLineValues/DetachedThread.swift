#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own for work that blocks (stdin's reads, the terminal's loop), on
/// pthreads rather than Foundation's Thread, which would link all of Foundation into qna.
public enum DetachedThread {
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts `body` on a new detached thread.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
  }
}
