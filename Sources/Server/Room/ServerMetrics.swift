import Prometheus
import QnAStore
import Synchronization

/// What `GET /metrics` reports, in Prometheus's text format. Counts are this instance's: with
/// several instances, a query sums them. One registry per server, not the process-wide
/// metrics system, so two servers in one process (the tests) keep their counts apart.
public final class ServerMetrics: Sendable {
  package let registry = PrometheusCollectorRegistry()
  /// Set at each scrape from the socket hub.
  package let openSockets: Gauge
  package let questions: Counter
  /// New questions the word filter matched (sent to review, or refused).
  package let questionsFiltered: Counter
  package let votes: Counter
  /// Votes read on their socket's event loop (`LoopVotes`), the rest through its task.
  package let votesOnLoop: Counter
  package let answers: Counter
  /// New attendee identities (credentials) issued.
  package let attendeesIssued: Counter
  /// From the first change a room delta carries to its hand-off to every joined socket's
  /// queue (the coalescing window included).
  package let fanOut: DurationHistogram
  /// One store operation, its wait for the database included.
  package let database: DurationHistogram
  /// The event loops' CPU time writing the rooms' broadcasts (`FanOutCost`), in seconds.
  package let broadcastWrites: Counter
  /// PostgreSQL's pool and notices (`StoreHealth`), read at each scrape.
  package let pool: PoolMetrics

  public init() {
    func name(_ name: String, _ help: String) -> MetricNameDescriptor {
      // qna_NAME_UNIT: the unit is the name's last word.
      let words = name.split(separator: "_")
      return MetricNameDescriptor(
        namespace: "qna", metricName: words.dropLast().joined(separator: "_"),
        unitName: String(words.last!), helpText: help)
    }
    openSockets = registry.makeGauge(
      descriptor: name("websockets_open", "WebSockets open on this instance."))
    questions = registry.makeCounter(
      descriptor: name("questions_total", "New questions stored through this instance."))
    questionsFiltered = registry.makeCounter(
      descriptor: name(
        "questions_filtered_total",
        "New questions the word filter matched on this instance (sent to review or refused)."))
    votes = registry.makeCounter(
      descriptor: name(
        "votes_total", "Votes and withdrawals accepted through this instance (repeats included)."))
    votesOnLoop = registry.makeCounter(
      descriptor: name(
        "votes_on_loop_total",
        "Votes read where their socket's frames are read, without a task (accepted or not)."))
    answers = registry.makeCounter(
      descriptor: name("answers_total", "Questions answered through this instance."))
    attendeesIssued = registry.makeCounter(
      descriptor: name(
        "attendees_issued_total", "Attendee credentials issued through this instance."))
    fanOut = registry.makeDurationHistogram(
      descriptor: name(
        "room_fanout_seconds", "From a room change to its delta queued for every joined socket."),
      buckets: [1, 5, 10, 25, 50, 100, 150, 250, 500, 1000, 2500].map(Duration.milliseconds))
    database = registry.makeDurationHistogram(
      descriptor: name(
        "database_seconds", "One database operation, waiting for the database included."),
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 1000].map {
        Duration.microseconds(Int64($0 * 1000))
      })
    broadcastWrites = registry.makeCounter(
      descriptor: name(
        "broadcast_write_cpu_seconds_total",
        "CPU time this instance's event loops spent writing the rooms' deltas to their sockets."))
    pool = PoolMetrics(registry: registry, name: name)
  }

  /// The text a scrape gets.
  package func exposition(openSockets count: Int, store: StoreHealth?) -> String {
    openSockets.set(Double(count))
    if let store { pool.read(store.reading) }
    return registry.emitToString()
  }
}
