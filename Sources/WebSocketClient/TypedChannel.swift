import RFC6455
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `Codable` values over a `WebSocketClient`: incoming messages decoded, outgoing values
/// encoded, and values sent while no connection is open queued, in order, for the next one.
///
///     struct Ping: Codable { var n: Int }
///     let channel = TypedChannel<Ping, Ping>(WebSocketClient(url: url))
///     channel.start()
///     try await channel.send(Ping(n: 1))          // queued until the connection opens
///     for await event in channel.events {
///       switch event {
///       case .value(let ping): print(ping.n)
///       case .undecodable(_, let error): print("skipped: \(error)")   // the stream goes on
///       case .connection(let event): print(event)                     // opened, disconnected…
///       }
///     }
///
/// The channel consumes the client's events: iterate `events`, not `client.events`. A value
/// whose connection drops while it is being written is sent again on the next connection
/// (at least once), so messages that must not repeat carry their own idempotency key.
public final class TypedChannel<Incoming: Sendable, Outgoing: Sendable>: Sendable {
  public enum Event: Sendable {
    case value(Incoming)
    /// A message that did not decode, and why. Never ends the stream.
    case undecodable(WebSocketMessage, any Error)
    /// Everything but messages: connecting, opened, disconnected, reconnecting, round trips.
    case connection(ClientEvent)
  }

  /// How values become messages and back: `json()` for `Codable` values, or any codec.
  public struct Coding: Sendable {
    public var decode: @Sendable (WebSocketMessage) throws -> Incoming
    public var encode: @Sendable (Outgoing) throws -> WebSocketMessage

    public init(
      decode: @escaping @Sendable (WebSocketMessage) throws -> Incoming,
      encode: @escaping @Sendable (Outgoing) throws -> WebSocketMessage
    ) {
      self.decode = decode
      self.encode = encode
    }
  }

  public enum SendError: Error, Sendable {
    /// The value did not encode; nothing was queued.
    case encoding(any Error)
    /// The channel was closed; nothing more goes out.
    case closed
  }

  public let client: WebSocketClient
  public let coding: Coding
  private struct Outbox {
    var queue: [WebSocketMessage] = []
    var open = false
    var flushing = false
    var closed = false
  }
  private let outbox = Mutex(Outbox())

  public init(_ client: WebSocketClient, coding: Coding) {
    self.client = client
    self.coding = coding
  }

  public func start() { client.start() }

  /// Closes the connection (no reconnect after this); what is still queued is dropped.
  public func close() async {
    outbox.withLock {
      $0.closed = true
      $0.queue = []
    }
    await client.close()
  }

  /// Encodes `value` and sends it, or queues it when no connection is open (it goes, in
  /// order, once one is). Returns once the socket took it, or once it is queued.
  public func send(_ value: Outgoing) async throws(SendError) {
    let message: WebSocketMessage
    do {
      message = try coding.encode(value)
    } catch {
      throw .encoding(error)
    }
    let closed = outbox.withLock { outbox in
      if !outbox.closed { outbox.queue.append(message) }
      return outbox.closed
    }
    if closed { throw .closed }
    await flush()
  }

  /// Values sent and not yet taken by a socket.
  public var queuedCount: Int { outbox.withLock { $0.queue.count } }

  /// Writes the queue in order while a connection is open; one writer at a time. A write
  /// that fails leaves its message first in the queue for the next connection.
  private func flush() async {
    let starts = outbox.withLock { outbox in
      guard outbox.open, !outbox.flushing, !outbox.queue.isEmpty else { return false }
      outbox.flushing = true
      return true
    }
    guard starts else { return }
    while let next = outbox.withLock({ $0.open ? $0.queue.first : nil }) {
      do {
        try await client.send(next)
      } catch {
        break
      }
      outbox.withLock { if !$0.queue.isEmpty { $0.queue.removeFirst() } }
    }
    // A value queued after the last look finds no writer: look again.
    let more = outbox.withLock { outbox in
      outbox.flushing = false
      return outbox.open && !outbox.queue.isEmpty
    }
    if more { await flush() }
  }

  /// On the consumer's turn, without waiting: a flush stuck on a peer that does not read
  /// must not stop the events that would tell of it.
  private func connection(opened: Bool) {
    outbox.withLock { $0.open = opened }
    if opened { Task { await self.flush() } }
  }

  /// The client's events as values, decode failures and connection events, in order. Ends
  /// when the client has stopped for good.
  public var events: Events { Events(channel: self) }

  public struct Events: AsyncSequence, Sendable {
    let channel: TypedChannel

    public struct AsyncIterator: AsyncIteratorProtocol {
      let channel: TypedChannel
      var events: WebSocketClient.Events.AsyncIterator

      public mutating func next() async -> Event? {
        guard let event = await events.next() else { return nil }
        switch event {
        case .message(let message):
          do {
            return .value(try channel.coding.decode(message))
          } catch {
            return .undecodable(message, error)
          }
        case .opened: channel.connection(opened: true)
        case .disconnected: channel.connection(opened: false)
        default: break
        }
        return .connection(event)
      }
    }

    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(channel: channel, events: channel.client.events.makeAsyncIterator())
    }
  }
}

extension TypedChannel.Coding where Incoming: Decodable, Outgoing: Encodable {
  /// JSON with Foundation's coders, sent as text (or binary with `asText: false`). Either
  /// kind of message decodes.
  public static func json(asText: Bool = true) -> Self {
    Self(
      decode: { message in try JSONDecoder().decode(Incoming.self, from: Data(message.data)) },
      encode: { value in
        let data = try JSONEncoder().encode(value)
        return asText ? .text(String(decoding: data, as: UTF8.self)) : .binary(Array(data))
      })
  }
}

extension TypedChannel where Incoming: Decodable, Outgoing: Encodable {
  /// A channel of JSON values.
  public convenience init(_ client: WebSocketClient) {
    self.init(client, coding: .json())
  }
}
