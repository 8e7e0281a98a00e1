import Prometheus
import QnAStore
import Synchronization

/// PostgreSQL's side of `/metrics`: the pool's connections, the calls that hit their time
/// limit, and the notices from the other instances (how many, how late). Absent on SQLite.
package final class PoolMetrics: Sendable {
  let inUse: Gauge
  let waiting: Gauge
  let size: Gauge
  let listening: Gauge
  let abandonedRunning: Gauge
  let deadlineHits: Counter
  let notices: Counter
  let listenerReconnects: Counter
  /// From a notice's `NOTIFY` (by its sender's clock) to its arrival here.
  package let noticeLag: DurationHistogram
  /// The counts at the last scrape: the counters grow by the difference.
  private let counted = Mutex(StoreHealth.Reading())

  init(
    registry: PrometheusCollectorRegistry,
    name: (String, String) -> MetricNameDescriptor
  ) {
    inUse = registry.makeGauge(
      descriptor: name(
        "database_pool_in_use_connections",
        "PostgreSQL connections lent out: calls in a transaction, and the listening one."))
    waiting = registry.makeGauge(
      descriptor: name("database_pool_waiting_calls", "Calls waiting for a PostgreSQL connection."))
    size = registry.makeGauge(
      descriptor: name(
        "database_pool_size_connections", "The most PostgreSQL connections (--db-pool)."))
    listening = registry.makeGauge(
      descriptor: name(
        "database_listener_up",
        "1 while the connection listening for other instances' changes is up."))
    abandonedRunning = registry.makeGauge(
      descriptor: name(
        "database_abandoned_running_calls",
        "Calls given up at their limit whose task has not ended (their connection is freed)."))
    deadlineHits = registry.makeCounter(
      descriptor: name(
        "database_deadline_hits_total",
        "Database calls that gave up at --db-call-limit (their connection closed)."))
    notices = registry.makeCounter(
      descriptor: name("database_notices_total", "Change notices received from PostgreSQL."))
    listenerReconnects = registry.makeCounter(
      descriptor: name(
        "database_listener_reconnects_total",
        "Times the listening connection was made again after it was lost."))
    noticeLag = registry.makeDurationHistogram(
      descriptor: name(
        "database_notice_lag_seconds",
        "From a change's notice being sent (the sender's clock) to its arrival here."),
      buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000].map(Duration.milliseconds))
  }

  /// Leaves the exposition: on SQLite there is no pool, nor a listener to be down.
  package func unregister(from registry: PrometheusCollectorRegistry) {
    for gauge in [inUse, waiting, size, listening, abandonedRunning] {
      registry.unregisterGauge(gauge)
    }
    for counter in [deadlineHits, notices, listenerReconnects] {
      registry.unregisterCounter(counter)
    }
    registry.unregisterDurationHistogram(noticeLag)
  }

  func read(_ reading: StoreHealth.Reading) {
    inUse.set(Int64(reading.inUse))
    waiting.set(Int64(reading.waiting))
    size.set(Int64(reading.poolSize))
    listening.set(Int64(reading.listening ? 1 : 0))
    abandonedRunning.set(Int64(reading.abandonedRunning))
    let before = counted.withLock { counted in
      defer { counted = reading }
      return counted
    }
    deadlineHits.increment(by: Int64(max(0, reading.deadlineHits - before.deadlineHits)))
    notices.increment(by: Int64(max(0, reading.notices - before.notices)))
    listenerReconnects.increment(
      by: Int64(max(0, reading.listenerReconnects - before.listenerReconnects)))
  }
}
