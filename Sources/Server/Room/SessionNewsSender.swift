import QnA
import QnAStore

extension SessionRooms {
  /// Extension `sessionState`: every socket of the session on this instance hears that it
  /// was closed, reopened or deleted; one message, encoded and framed once for all of them.
  func tell(_ session: SessionRecord, deleted: Bool) {
    guard main.settings.extensions, let id = session.id else { return }
    let sockets = main.sockets.all.filter { $0.session == id }
    guard !sockets.isEmpty else { return }
    // A deleted session takes nothing any more: it says so, whatever its row said last.
    let news = SessionNews(
      session: SessionInfo(
        code: session.code, title: session.title, open: session.open && !deleted),
      deleted: deleted ? true : nil)
    let bytes = WireCodec().encode(.sessionNews(news))
    Broadcast.send([OutgoingMessage(bytes, deflaters: main.settings.deflaters)], to: sockets)
  }
}
