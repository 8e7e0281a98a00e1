import Foundation
import Logging
import QnA
import QnARoom
import Synchronization
import TestSupport
import Testing

/// The room's fan-out in process: a test room for the store, test peers for the sockets and
/// a manual clock for its window and retries, so that each step (a join, its snapshot's
/// pages, a catch-up, a gap, a failed read, a storm) is seen in order, without a server.
@Suite("The room's worker")
struct RoomWorkerTests {
  static let window = Duration.milliseconds(100)

  final class Told: Sendable {
    let spacings = Mutex<[Duration]>([])
  }

  struct Fixture {
    let room = TestRoom()
    let clock = ManualClock()
    /// The process's CPU time as the room sees it: none spent unless a test says so
    /// (`busy(for:)`), whatever else the test process does.
    let cpu = ManualCPUTime()
    /// Each spacing the room told its store's vote commits, in turn.
    let told = Told()
    let fanOut: RoomFanOut

    init() {
      var logger = Logger(label: "room-worker-test")
      logger.logLevel = .critical
      // One core, whatever machine runs the test: a recorded cost is then the cost per core.
      let load = ProcessLoad(cores: 1, cpuTime: { [cpu] in cpu.now }, clock: clock)
      fanOut = RoomFanOut(
        reads: room, clock: clock, window: window, cost: FanOutCost(cores: 1, load: load),
        spaced: { [told] spacing in told.spacings.withLock { $0.append(spacing) } },
        logger: logger)
    }

    /// A vote for `question`, and the room told of it.
    func vote(_ question: UUID, urgent: Bool = false) {
      room.vote(question)
      fanOut.changed(urgent: urgent)
    }

    /// A batch of votes for `question` committed, and the room told of it as the store tells it.
    func commit(_ question: UUID) {
      room.vote(question)
      fanOut.committed()
    }

    /// One question, and one peer level with the room, the worker idle.
    func onePeerOnOneQuestion() async -> (UUID, TestPeer) {
      let question = room.ask(1)
      let peer = TestPeer(1)
      join(peer)
      #expect(await level(peer))
      await RoomWorkerTests.settle()
      return (question, peer)
    }

    /// One peer on one question, and a vote sent at once with the core full for a window:
    /// the start of a room on a full core.
    func firstVoteOnAFullCore() async -> (UUID, TestPeer) {
      let (question, peer) = await onePeerOnOneQuestion()
      busy(for: RoomWorkerTests.window)
      vote(question)
      #expect(await level(peer, "the first vote, at once"))
      return (question, peer)
    }

    /// `duration` goes by with the core full: as much CPU time spent as time gone by.
    func busy(for duration: Duration) {
      cpu.spend(duration)
      clock.advance(by: duration)
    }

    func join(_ peer: TestPeer, since: Int? = nil) {
      fanOut.join(
        peer.connection, peer.join(since: since, epoch: since.map { _ in room.epoch }),
        attendee: peer.attendee)
    }

    /// The peer has the room's last change, by snapshot or delta.
    func level(_ peer: TestPeer, _ what: String = "level") async -> Bool {
      await eventually(what) { peer.seen == room.seq }
    }
  }

  /// Lets the worker's task run a while: what it would send has been sent.
  static func settle() async {
    for _ in 0..<200 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(20))
  }

  @Test func aJoinGetsTheRoomInPagesThenEachChangeOnce() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    // 60 questions of 1,000 characters: more than one 16 KiB page.
    let ids = (1...60).map { fixture.room.ask($0, length: 1000) }
    let peer = TestPeer(1)
    fixture.join(peer)
    #expect(await fixture.level(peer, "the snapshot"))
    let pages = peer.snapshots
    #expect(pages.count > 1)
    #expect(pages.map(\.part) == Array(1...pages.count))
    #expect(pages.allSatisfy { $0.seq == 60 && $0.parts == pages.count })
    #expect(Set(pages.flatMap(\.questions).map(\.id)) == Set(ids))
    // A vote after a quiet spell goes out at once, as one delta naming just that change.
    fixture.vote(ids[3])
    #expect(await fixture.level(peer, "the vote"))
    #expect(peer.deltas.count == 1)
    #expect(peer.deltas.first?.from == 61)
    #expect(peer.deltas.first?.questions.map(\.votes) == [1])
  }

  @Test func aJoinThatHasSeenTheRoomGetsOnlyWhatChangedSince() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    for number in 1...5 { fixture.room.ask(number) }
    let peer = TestPeer(1)
    fixture.join(peer, since: 2)
    #expect(await fixture.level(peer, "the catch-up"))
    #expect(peer.snapshots.isEmpty)
    #expect(peer.deltas.map { [$0.from, $0.to] } == [[3, 5]])
    #expect(peer.deltas.first?.questions.count == 3)
    #expect(fixture.room.snapshotReads == 0)
  }

  @Test func aGapIsFilledByJoiningAgainFromWhereThePeerWas() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let question = fixture.room.ask(1)
    let peer = TestPeer(1)
    fixture.join(peer)
    #expect(await fixture.level(peer))
    // Three changes broadcast; the client saw a gap after the first and joins again from it.
    for _ in 0..<3 {
      fixture.vote(question, urgent: true)
      #expect(await fixture.level(peer))
    }
    let before = peer.messages.count
    fixture.join(peer, since: 2)
    #expect(await eventually("the refill") { peer.messages.count == before + 1 })
    #expect(peer.deltas.last.map { [$0.from, $0.to] } == [3, 4])
    #expect(peer.deltas.last?.questions.first?.votes == 3)
    // It takes every change after that, once.
    fixture.vote(question, urgent: true)
    #expect(await fixture.level(peer))
    #expect(peer.deltas.suffix(2).map(\.from) == [3, 5])
  }

  @Test func aReadTheStoreFailedIsTriedAgainAndNothingIsLost() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let question = fixture.room.ask(1)
    // The join's read fails: the join is tried again after the pause, until it is read.
    fixture.room.failing = true
    let peer = TestPeer(1)
    fixture.join(peer)
    await Self.settle()
    #expect(peer.messages.isEmpty)
    fixture.clock.advance(by: .seconds(1))
    await Self.settle()
    #expect(peer.messages.isEmpty)
    fixture.room.failing = false
    fixture.clock.advance(by: .seconds(1))
    #expect(await fixture.level(peer, "the snapshot once the store is back"))
    // A flush whose read fails: the change still reaches the room, with no other change
    // to carry it.
    fixture.room.failing = true
    fixture.vote(question, urgent: true)
    await Self.settle()
    #expect(peer.deltas.isEmpty)
    fixture.room.failing = false
    fixture.clock.advance(by: .seconds(1))
    #expect(await fixture.level(peer, "the vote once the store is back"))
    #expect(peer.deltas.map(\.from) == [2])
  }

  @Test func aStormIsOneDeltaPerWindowReadOnceForEveryone() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let question = fixture.room.ask(1)
    let peers = (1...3).map { TestPeer($0) }
    for peer in peers { fixture.join(peer) }
    for peer in peers { #expect(await fixture.level(peer)) }
    // A join's last catch-up read may still be under way once its peer is level: counted
    // before the storm, not in it (it made this test fail once under a loaded machine).
    await Self.settle()
    let readsBefore = fixture.room.changeReads
    // The first vote goes at once; the thousand after it wait for the window's end.
    fixture.vote(question)
    for peer in peers { #expect(await fixture.level(peer, "the first vote")) }
    for _ in 0..<1000 {
      fixture.vote(question)
    }
    await Self.settle()
    #expect(peers.allSatisfy { $0.deltas.count == 1 })
    fixture.clock.advance(by: Self.window)
    for peer in peers { #expect(await fixture.level(peer, "the storm")) }
    for peer in peers {
      #expect(peer.deltas.map { [$0.from, $0.to] } == [[2, 2], [3, 1002]])
      #expect(peer.deltas.last?.questions.first?.votes == 1001)
    }
    // Two broadcasts, each read once for all three.
    #expect(fixture.room.changeReads - readsBefore == 2)
  }

  /// A room whose broadcasts cost more than a tenth of the window to write waits ten times
  /// that between them, up to a quarter of a window more while the cores have room (up to a
  /// second while they are full: the next test), and its vote commits are told to linger as
  /// long. A presenter's action still goes at once.
  @Test func costlyBroadcastsAreSpacedByWhatTheyCost() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let (question, peer) = await fixture.onePeerOnOneQuestion()
    fixture.vote(question)
    #expect(await fixture.level(peer, "the first vote, at once"))
    #expect(fixture.told.spacings.withLock { $0 }.isEmpty, "the window: nothing to tell")
    // Its writes took 11.2 ms (2,000 sockets on one core): the next waits 112 ms.
    fixture.fanOut.cost.record(.microseconds(11200))
    fixture.vote(question)
    fixture.clock.advance(by: Self.window)
    await Self.settle()
    #expect(peer.deltas.count == 1, "not after the window alone")
    #expect(fixture.told.spacings.withLock { $0 } == [.milliseconds(112)], "the commits follow")
    fixture.clock.advance(by: .milliseconds(12))
    #expect(await fixture.level(peer, "the second vote, 112 ms after the first"))
    // Costlier (10,000 sockets): a quarter of a window more, no further, while the core has
    // room.
    fixture.fanOut.cost.record(.milliseconds(300))
    fixture.vote(question)
    fixture.clock.advance(by: .milliseconds(120))
    await Self.settle()
    #expect(peer.deltas.count == 2, "not after 120 ms")
    #expect(fixture.told.spacings.withLock { $0.last } == .milliseconds(125))
    fixture.clock.advance(by: .milliseconds(5))
    #expect(await fixture.level(peer, "the third vote, 125 ms after the second"))
    // A presenter's action does not wait for it.
    fixture.vote(question, urgent: true)
    #expect(await fixture.level(peer, "an urgent change, at once"))
  }

  /// While the core stays full, what a room's writes cost counts a quarter more at each
  /// broadcast; once the core idles, it counts as it is again. A room whose writes cost
  /// nothing is not held back at all.
  @Test func aFullCoreStretchesTheSpacingOfCostlyRoomsAndEasesItBack() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let (question, peer) = await fixture.firstVoteOnAFullCore()
    #expect(fixture.fanOut.cost.stretch == 1.25)
    // Nothing cost anything yet: the window alone.
    fixture.vote(question)
    fixture.busy(for: Self.window)
    #expect(await fixture.level(peer, "the second vote, a window after the first"))
    #expect(fixture.fanOut.cost.stretch == 1.5625)
    // Its writes took 9.6 ms: ten times that, stretched, is 150 ms.
    fixture.fanOut.cost.record(.microseconds(9600))
    fixture.vote(question)
    fixture.busy(for: Self.window)
    await Self.settle()
    #expect(peer.deltas.count == 2, "not after the window alone")
    fixture.busy(for: .milliseconds(50))
    #expect(await fixture.level(peer, "the third vote, 150 ms after the second"))
    // The core idles half a second: the next vote goes at once, and the stretch is gone.
    fixture.clock.advance(by: .milliseconds(500))
    fixture.vote(question)
    #expect(await fixture.level(peer, "the fourth vote, at once"))
    #expect(fixture.fanOut.cost.stretch == 1)
  }

  /// A batch of votes committed about as far after the last as the broadcasts are apart (its
  /// batch lingered as told) goes a quarter of the spacing early, never before the window,
  /// so that broadcasts come into step with commits; commits that come faster (batches full
  /// before their linger) wait the whole spacing.
  @Test func aCommitInStepGoesEarlyAndFasterCommitsWaitTheSpacing() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let (question, peer) = await fixture.onePeerOnOneQuestion()
    fixture.commit(question)
    #expect(await fixture.level(peer, "the first batch, at once"))
    // Its writes took 12 ms: broadcasts 120 ms apart, and the commits told so.
    fixture.fanOut.cost.record(.milliseconds(12))
    fixture.clock.advance(by: .milliseconds(110))
    fixture.commit(question)
    #expect(await fixture.level(peer, "a batch 110 ms after the last, at once"))
    #expect(fixture.told.spacings.withLock { $0 } == [.milliseconds(120)])
    // A full batch 30 ms later: the whole 120 ms from the last broadcast.
    fixture.clock.advance(by: .milliseconds(30))
    fixture.commit(question)
    // Taken by the worker before the clock moves on: it reads the time it came.
    await Self.settle()
    fixture.clock.advance(by: .milliseconds(80))
    await Self.settle()
    #expect(peer.deltas.count == 2, "not before 120 ms")
    fixture.clock.advance(by: .milliseconds(10))
    #expect(await fixture.level(peer, "the full batch, 120 ms after the last broadcast"))
  }

  /// However costly a room's writes, while the core is full its broadcasts wait a second at
  /// most.
  @Test func aFullCoreSpacesACostlyRoomASecondAtMost() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    let (question, peer) = await fixture.firstVoteOnAFullCore()
    #expect(fixture.fanOut.cost.stretch > 1)
    fixture.fanOut.cost.record(.seconds(5))
    fixture.vote(question)
    fixture.busy(for: .milliseconds(900))
    await Self.settle()
    #expect(peer.deltas.count == 1, "not after 900 ms")
    #expect(fixture.told.spacings.withLock { $0.last } == .seconds(1))
    fixture.busy(for: .milliseconds(100))
    #expect(await fixture.level(peer, "the second vote, a second after the first"))
  }

  /// A stretch grows by a quarter at each new full reading, to at most ten times, and eases
  /// by a fifth for each period an idle reading covers, to none; in between, or without a
  /// new reading, it stays.
  @Test func theStretchFollowsEachNewReadingOfTheLoad() {
    let cpu = ManualCPUTime()
    let clock = ManualClock()
    let cost = FanOutCost(
      cores: 2, load: ProcessLoad(cores: 2, cpuTime: { cpu.now }, clock: clock))
    func look(busy share: Double, over period: Duration = ProcessLoad.period) {
      cpu.spend(period * 2 * share)
      clock.advance(by: period)
      cost.beginBroadcast()
    }
    look(busy: 1)
    #expect(cost.stretch == 1.25, "both cores full")
    look(busy: 1, over: .milliseconds(10))
    #expect(cost.stretch == 1.25, "the same reading, followed once")
    look(busy: 0.8, over: .milliseconds(90))
    #expect(cost.stretch == 1.25, "not full, not idle either")
    for _ in 0..<20 { look(busy: 0.95) }
    #expect(cost.stretch == 10)
    look(busy: 0.1, over: .milliseconds(300))
    #expect(abs(cost.stretch - 10 * 0.8 * 0.8 * 0.8) < 1e-9, "three periods idle")
    look(busy: 0, over: .seconds(1))
    #expect(cost.stretch == 1)
  }

  /// The share of the cores a process keeps busy: its CPU time over the time gone by, per
  /// core, over at least a period; a quota's cores may be a fraction of one.
  @Test func aProcessLoadIsItsCPUTimeOverTheTimeGoneByPerCore() {
    let cpu = ManualCPUTime()
    let clock = ManualClock()
    let load = ProcessLoad(cores: 2, cpuTime: { cpu.now }, clock: clock)
    #expect(load.reading() == nil)
    cpu.spend(.milliseconds(150))
    clock.advance(by: .milliseconds(100))
    #expect(load.reading() == .init(share: 0.75, at: .milliseconds(100)))
    cpu.spend(.milliseconds(50))
    clock.advance(by: .milliseconds(50))
    #expect(load.reading()?.at == .milliseconds(100), "half a period: the last reading")
    clock.advance(by: .milliseconds(50))
    #expect(load.reading() == .init(share: 0.25, at: .milliseconds(200)))
    let half = ProcessLoad(cores: 0.5, cpuTime: { cpu.now }, clock: clock)
    cpu.spend(.milliseconds(50))
    clock.advance(by: .milliseconds(100))
    #expect(half.reading()?.share == 1, "half a core, all of it busy")
    #expect(ProcessLoad.cgroupQuota("50000 100000\n") == 0.5)
    #expect(ProcessLoad.cgroupQuota("max 100000\n") == nil)
    #expect(ProcessLoad.cgroupQuota(nil) == nil && ProcessLoad.cgroupQuota("") == nil)
  }

  /// Two loops on one core take turns: their times add up. On two cores they share the sum.
  @Test func aBroadcastsCostIsItsLoopsTimesPerCore() {
    let one = FanOutCost(cores: 1)
    let two = FanOutCost(cores: 2)
    for cost in [one, two] {
      cost.beginBroadcast()
      cost.record(.milliseconds(30))
      cost.record(.milliseconds(10))
    }
    #expect(one.value == .milliseconds(40) && two.value == .milliseconds(20))
    // The next broadcast keeps it while it is written; the one after starts from half of it,
    // or from the last one's, if that cost more.
    one.beginBroadcast()
    one.record(.milliseconds(10))
    #expect(one.value == .milliseconds(40))
    one.beginBroadcast()
    #expect(one.value == .milliseconds(20))
    one.record(.milliseconds(5))
    one.beginBroadcast()
    #expect(one.value == .milliseconds(10))
    #expect(FanOutCost.cores(inList: "0") == 1 && FanOutCost.cores(inList: "0-3,8,10-11") == 7)
    #expect(FanOutCost.cores(inList: "") == nil && FanOutCost.cores(inList: "3-1") == nil)
  }

  @Test func aPeerNotReadingGetsNoDeltasThenOneMergedCatchUp() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    // A room larger than what a socket may have queued before it counts as not reading.
    let ids = (1...100).map { fixture.room.ask($0, length: 1000) }
    let slow = TestPeer(1)
    let quick = TestPeer(2)
    slow.inbox.pause()
    fixture.join(slow)
    fixture.join(quick)
    #expect(await fixture.level(quick))
    // The room changes while the slow peer's snapshot waits for it to read.
    for id in ids.prefix(10) {
      fixture.vote(id, urgent: true)
      #expect(await fixture.level(quick))
    }
    #expect(slow.messages.isEmpty)
    slow.inbox.resume()
    #expect(await fixture.level(slow, "the slow peer, once it reads"))
    // Its snapshot as of seq 100, then one delta with all ten votes.
    #expect(slow.snapshots.allSatisfy { $0.seq == 100 })
    #expect(slow.deltas.map { [$0.from, $0.to] } == [[101, 110]])
    #expect(slow.deltas.first?.questions.count == 10)
    #expect(quick.deltas.count == 10)
  }

  @Test func aPeerThatStopsReadingIsSentNothingMoreThenOneMergedCatchUp() async {
    let fixture = Fixture()
    defer { fixture.fanOut.stop() }
    // Questions of 4,000 characters: each delta about 4 KB, so 16 fill what a socket may
    // have queued before it counts as not reading.
    let ids = (1...40).map { fixture.room.ask($0, length: 4000) }
    let slow = TestPeer(1)
    let quick = TestPeer(2)
    for peer in [slow, quick] { fixture.join(peer) }
    for peer in [slow, quick] { #expect(await fixture.level(peer)) }
    slow.inbox.pause()
    // A broadcast per vote (the quick peer shows each went out).
    for id in ids {
      fixture.vote(id, urgent: true)
      #expect(await fixture.level(quick))
    }
    let queued = slow.connection.backlog
    slow.inbox.resume()
    // What was queued drains; the rest comes in one catch-up once the worker looks again.
    await Self.settle()
    fixture.clock.advance(by: Self.window)
    #expect(await fixture.level(slow, "the catch-up"))
    #expect(queued >= SocketConnection.congestedBacklog)
    #expect(quick.deltas.filter(\.completes).count == ids.count)
    let whole = slow.deltas.filter(\.completes)
    #expect(whole.count < ids.count)
    // Every change once, in order: each delta starts where the one before it ended, the
    // last one merging all that changed while the peer was not reading.
    #expect(zip(whole, whole.dropFirst()).allSatisfy { $1.from == $0.to + 1 })
    #expect(whole.first?.from == 41 && whole.last?.to == 80)
    #expect(whole.last.map { $0.to - $0.from } ?? 0 > 1)
  }
}

/// An unhurried change (a word cloud's results) waits up to a second for its broadcast, with
/// whatever else changes meanwhile; a change in more of a hurry does not wait for it.
@Suite("The room's worker: unhurried changes")
struct UnhurriedChangeTests {
  @Test func anUnhurriedChangeGoesWithinASecondAndAQuestionDoesNotWaitForIt() async {
    let fixture = RoomWorkerTests.Fixture()
    defer { fixture.fanOut.stop() }
    let question = fixture.room.ask(1)
    let peer = TestPeer(1)
    fixture.join(peer)
    #expect(await fixture.level(peer))
    // After a quiet second: at once (the leading edge), then a second between broadcasts.
    fixture.clock.advance(by: .seconds(1))
    fixture.room.vote(question)
    fixture.fanOut.changedUnhurried()
    #expect(await fixture.level(peer, "the first, at once"))
    fixture.room.vote(question)
    fixture.fanOut.changedUnhurried()
    fixture.clock.advance(by: .milliseconds(500))
    await RoomWorkerTests.settle()
    #expect(peer.deltas.count == 1, "not within the window: within the second")
    fixture.clock.advance(by: .milliseconds(500))
    #expect(await fixture.level(peer, "within the second"))
    #expect(peer.deltas.count == 2)
    // An unhurried change waiting, then a window's change: both go at the window.
    fixture.room.vote(question)
    fixture.fanOut.changedUnhurried()
    fixture.vote(question)
    fixture.clock.advance(by: RoomWorkerTests.window)
    #expect(await fixture.level(peer, "at the window, with the unhurried one"))
    #expect(peer.deltas.count == 3)
  }
}

/// A process's CPU time that a test spends by hand.
final class ManualCPUTime: Sendable {
  private let time = Mutex(Duration.zero)

  var now: Duration { time.withLock { $0 } }
  func spend(_ duration: Duration) { time.withLock { $0 += duration } }
}
