import Foundation
import Logging
import QnA
import QnAStore

/// One socket's snapshot, sent page by page as the socket reads them, from a task of its own
/// (`RoomWorker.sendSnapshot`); then `snapshotSent` tells the room's worker, which catches the
/// socket up from the snapshot's sequence number. With the compact format the pages are the
/// same bytes for every joiner, and what is the attendee's own follows in `roomOwn`; in
/// today's format each socket's pages are made with its marks.
struct SnapshotDelivery: Sendable {
  let connection: SocketConnection
  let attendee: UUID?
  let snapshot: SharedSnapshot
  let reads: any RoomReads
  let deflaters: CompressorPool?
  let commands: AsyncStream<RoomFanOut.Command>.Continuation
  let logger: Logger

  func run() async {
    var view = AttendeeView.none
    if let attendee {
      do {
        view = try await reads.view(of: attendee, presenter: connection.isPresenter)
      } catch {
        // The room without marks: better than none; the next join marks them.
        logger.error("room: the view of \(attendee): \(error)")
      }
    }
    let codec = WireCodec()
    if connection.isCompact {
      var pages = snapshot.compactPages[...]
      while !pages.isEmpty {
        guard await connection.waitForRoom() else { return }
        pages = pages.dropFirst(connection.send(leading: pages))
      }
      for own in snapshot.own(view) {
        connection.send(
          OutgoingMessage(codec.encode(.roomOwn(own)), deflaters: deflaters), due: nil)
      }
    } else {
      var pages = SnapshotPages(snapshot, view: view)
      while let page = pages.next() {
        guard await connection.waitForRoom() else { return }
        connection.send(OutgoingMessage(page, deflaters: deflaters), due: nil)
      }
    }
    commands.yield(.snapshotSent(connection, seq: snapshot.seq))
  }
}
