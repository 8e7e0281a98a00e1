import Logging
import QnARoom
import QnAStore
import ServiceLifecycle

/// The store for the server's life: the other instances' changes reach the rooms while it
/// runs, and its connections are given back when it stops.
struct StoreService: Service {
  let store: QuestionStore
  let rooms: SessionRooms

  func run() async throws {
    if let feed = store.driver.roomFeed {
      feed.listen()
      await cancelWhenGracefulShutdown {
        for await event in feed.events { rooms.apply(event) }
      }
      feed.finish()
    }
    // Ends only at shutdown, whatever the feed did: a service that ends early would fail
    // the group, hiding why (a database that never answered `prepare`, say).
    try? await gracefulShutdown()
    await store.close()
  }
}

/// The projector's head count for the server's life: this instance's attendees written and
/// the screens' counts read once a tick; at shutdown its rows are deleted, so that the other
/// instances' screens stop counting its attendees at once, not after the rows lapse.
struct HeadCountService: Service {
  let headCount: HeadCount

  func run() async throws {
    await cancelWhenGracefulShutdown { await headCount.run() }
    await headCount.end()
  }
}

/// Graceful shutdown, before the server stops: the instance turns unready and away from new
/// sockets at once, keeps serving the open ones for `delay` (for a balancer that polls
/// `/readyz` to notice), then closes every socket with 1001 so its client reconnects, through
/// the proxy, to another instance.
struct SocketsService: Service {
  let sockets: SocketHub
  let delay: Duration
  let logger: Logger

  func run() async throws {
    try? await gracefulShutdown()
    sockets.beginDraining()
    if delay > .zero {
      logger.info("shutting down: unready, closing the sockets in \(delay)")
      try? await Task.sleep(for: delay)
    }
    await sockets.closeAll()
  }
}
