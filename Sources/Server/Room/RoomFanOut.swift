import CommandLineValues
import Foundation
import Logging
import QnA
import QnAStore
import Synchronization

/// The room's fan-out: who has joined, and what changed since the last broadcast, sent to
/// every joined socket as one delta. Changes are coalesced: the first change after a quiet
/// spell goes out at once, the ones after it within `window` together, so 2,000 attendees
/// voting cause a delta per window, not 2,000² messages.
///
/// A broadcast is shared work: read once per audience (attendees, presenters), encoded once
/// per format (today's, and the compact one of extension `counts`), framed and compressed
/// once per framing (`OutgoingMessage`), and handed to each event loop once for all of its
/// sockets. A socket that is not taking what it is sent gets no deltas meanwhile: once it
/// reads again, one catch-up brings it the newest state of what changed (merged, never a
/// backlog).
///
/// One owner, `RoomWorker`, runs every command in turn from one queue, so a join's catch-up
/// and the broadcasts around it never interleave: each joined socket sees every sequence
/// number once, in order. This type only posts to that queue.
package final class RoomFanOut: Sendable {
  package enum Command: Sendable {
    /// `attendee`: who the socket joined as (its questions and votes marked in its snapshot),
    /// `nil` for a socket without an identity yet.
    case join(SocketConnection, Join, attendee: UUID?)
    case leave(UUID)
    /// `urgent`: a presenter's action, which nobody should wait a window for.
    case changed(urgent: Bool)
    /// A batch of votes committed in step with the broadcasts (`RoomPace.committed`).
    case committed
    /// A change that may wait up to `RoomWorker.unhurried` for its broadcast.
    case changedUnhurried
    case flush
    /// A joining socket has every page of its snapshot as of this sequence number.
    case snapshotSent(SocketConnection, seq: Int)
    /// Sockets whose deltas wait for them to read: see whether they do now.
    case retryBehind
    /// Tell the screens that need it the room's size (extension `audience`).
    case audience
    /// The session's head count, as just read (`HeadCount`).
    case headCount(Int)
  }

  package let window: Duration
  /// What writing its broadcasts costs (`FanOutCost`), which spaces them.
  package let cost: FanOutCost
  private let pendingChange = PendingChange()
  private let pendingCommit = PendingChange()
  private let commands: AsyncStream<Command>.Continuation
  private let worker: Task<Void, Never>

  /// `reads`: the room's store. `clock`: the window's and the retries' time.
  /// `fanOutTime`: told how long each broadcast took, from the first change it carries to
  /// its hand-off to every joined socket's queue (the coalescing window included).
  /// `spaced`: told how far apart the broadcasts are now (the window, or wider by their
  /// cost), each time that changes.
  package init(
    reads: any RoomReads, clock: any SessionClock = SystemClock(),
    window: Duration = .milliseconds(100), spacedByCost: Bool = true,
    cost: FanOutCost = FanOutCost(), deflaters: CompressorPool? = nil,
    fanOutTime: @escaping @Sendable (Duration) -> Void = { _ in },
    spaced: @escaping @Sendable (Duration) -> Void = { _ in }, logger: Logger
  ) {
    self.window = window
    self.cost = cost
    let (stream, commands) = AsyncStream<Command>.makeStream()
    self.commands = commands
    let (pendingChange, pendingCommit) = (self.pendingChange, self.pendingCommit)
    worker = Task {
      // Made here and never shared: only this task touches the room's state.
      let state = RoomWorker(
        reads: reads, clock: clock, window: window, deflaters: deflaters, commands: commands,
        fanOutTime: fanOutTime, spaced: spaced, fanOutCost: spacedByCost ? cost : nil,
        pendingChange: pendingChange, pendingCommit: pendingCommit, logger: logger)
      await state.run(stream)
    }
  }

  package func join(_ connection: SocketConnection, _ join: Join, attendee: UUID?) {
    commands.yield(.join(connection, join, attendee: attendee))
  }
  package func leave(_ connection: UUID) { commands.yield(.leave(connection)) }
  /// The session's head count, for the screens here (extension `audience`).
  package func headCount(_ count: Int) { commands.yield(.headCount(count)) }
  /// Something in the room changed (its log row is committed). A presenter's action is
  /// `urgent`: it goes out at once, window or not (votes may storm; presenters do not).
  /// A storm's changes while one waits in the queue post nothing more: the flush it schedules
  /// reads them all (a vote storm woke the worker once a vote).
  package func changed(urgent: Bool = false) {
    guard urgent || pendingChange.post() else { return }
    commands.yield(.changed(urgent: urgent))
  }

  /// A batch of votes was committed (each of its votes says so: one command while one waits).
  /// The store spaces the commits as the broadcasts are (`spaced`), and the broadcast keeps in
  /// step with them (`RoomWorker.scheduleFlush`).
  package func committed() {
    guard pendingCommit.post() else { return }
    commands.yield(.committed)
  }

  /// A change that may wait a second for the next broadcast (a word cloud's results).
  package func changedUnhurried() { commands.yield(.changedUnhurried) }

  package func stop() {
    commands.finish()
    worker.cancel()
  }
}

/// Whether a window's change waits in the room worker's queue: set when one is posted,
/// cleared when the worker takes it.
package final class PendingChange: Sendable {
  private let waiting = Atomic<Bool>(false)

  package init() {}

  /// Whether a change needs a command of its own (none waits now).
  func post() -> Bool { !waiting.exchange(true, ordering: .acquiringAndReleasing) }

  /// The worker took the waiting change: the next needs a command again.
  func taken() { waiting.store(false, ordering: .releasing) }
}
