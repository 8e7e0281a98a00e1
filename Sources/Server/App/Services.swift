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

/// Every socket closed with 1001 on graceful shutdown, before the server stops.
struct SocketsService: Service {
  let sockets: SocketHub

  func run() async throws {
    try? await gracefulShutdown()
    await sockets.closeAll()
  }
}
