/// permessage-deflate (RFC 7692): what a client offers, and what the server's response
/// agreed to. The compression itself is the runtime's (`MessageCompressor`): this core only
/// negotiates and frames.
public struct DeflateOffer: Sendable, Hashable {
  /// Ask the server to reset its compression context after each message (less memory for
  /// it, worse compression).
  public var serverNoContextTakeover: Bool
  /// Say that this client resets its context after each message.
  public var clientNoContextTakeover: Bool
  /// Ask the server for a window of at most 2^N bytes (8–15); `nil`: its choice.
  public var serverMaxWindowBits: Int?
  /// The largest window this client uses (8–15); `nil`: 15. `client_max_window_bits` is
  /// always offered, so that the server may ask for a smaller one.
  public var clientMaxWindowBits: Int?
  /// Messages shorter than this go out uncompressed (RFC 7692 lets each message choose):
  /// a few bytes gain nothing and cost a compressor's pass.
  public var minimumSize: Int

  public init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil, minimumSize: Int = 64
  ) {
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
    self.minimumSize = minimumSize
  }

  /// The `Sec-WebSocket-Extensions` value of the request.
  public var headerValue: String {
    var parts = ["permessage-deflate"]
    if serverNoContextTakeover { parts.append("server_no_context_takeover") }
    if clientNoContextTakeover { parts.append("client_no_context_takeover") }
    if let bits = serverMaxWindowBits { parts.append("server_max_window_bits=\(bits)") }
    parts.append("client_max_window_bits" + (clientMaxWindowBits.map { "=\($0)" } ?? ""))
    return parts.joined(separator: "; ")
  }

  static let windowBits = 8...15

  var isValid: Bool {
    [serverMaxWindowBits, clientMaxWindowBits].allSatisfy {
      $0.map(Self.windowBits.contains) ?? true
    }
      && minimumSize >= 0
  }
}

/// What both sides agreed to: each side's window and whether it resets its context after
/// every message.
public struct DeflateParameters: Sendable, Hashable {
  public var serverNoContextTakeover = false
  public var clientNoContextTakeover = false
  public var serverMaxWindowBits = 15
  public var clientMaxWindowBits = 15

  public init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15
  ) {
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
  }

  /// Validates the response's extensions against `offer` (RFC 7692 §5, §7.1): `nil` when the
  /// server declined (no extension), else the agreed parameters. Anything else — another
  /// extension, two of them, an unknown, repeated or malformed parameter, a window out of
  /// range or larger than asked, a window the offer did not ask for — fails the handshake.
  static func negotiate(_ elements: [String], offer: DeflateOffer?) throws(HandshakeError)
    -> DeflateParameters?
  {
    guard let first = elements.first else { return nil }
    guard let offer else { throw .unrequestedExtension(first) }
    guard elements.count == 1 else {
      throw .invalidExtension(
        "more than one extension accepted: \(elements.joined(separator: ", "))")
    }
    var parts = first.split(separator: ";", omittingEmptySubsequences: false).map {
      String($0).trimmingHTTPWhitespace()
    }
    guard parts.removeFirst().lowercased() == "permessage-deflate" else {
      throw .unrequestedExtension(first)
    }
    var agreed = DeflateParameters()
    var seen: Set<String> = []
    var serverBitsGiven = false
    for part in parts {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        String($0).trimmingHTTPWhitespace()
      }
      let name = pair[0].lowercased()
      let value = pair.count > 1 ? Self.unquoted(pair[1]) : nil
      guard seen.insert(name).inserted else {
        throw .invalidExtension("parameter \(name) given twice")
      }
      switch name {
      case "server_no_context_takeover", "client_no_context_takeover":
        guard value == nil else { throw .invalidExtension("\(name) takes no value") }
        if name == "server_no_context_takeover" {
          agreed.serverNoContextTakeover = true
        } else {
          agreed.clientNoContextTakeover = true
        }
      case "server_max_window_bits":
        let bits = try Self.windowBits(name, value)
        if let asked = offer.serverMaxWindowBits, bits > asked {
          throw .invalidExtension("server_max_window_bits=\(bits), larger than the \(asked) asked")
        }
        agreed.serverMaxWindowBits = bits
        serverBitsGiven = true
      case "client_max_window_bits":
        let bits = try Self.windowBits(name, value)
        if let offered = offer.clientMaxWindowBits, bits > offered {
          throw .invalidExtension(
            "client_max_window_bits=\(bits), larger than the \(offered) offered")
        }
        agreed.clientMaxWindowBits = bits
      default:
        throw .invalidExtension("unknown parameter \(name)")
      }
    }
    if offer.serverMaxWindowBits != nil, !serverBitsGiven {
      throw .invalidExtension("server_max_window_bits was asked for and not answered")
    }
    if let offered = offer.clientMaxWindowBits, offered < agreed.clientMaxWindowBits {
      agreed.clientMaxWindowBits = offered
    }
    agreed.clientNoContextTakeover = agreed.clientNoContextTakeover || offer.clientNoContextTakeover
    return agreed
  }

  private static func windowBits(_ name: String, _ value: String?) throws(HandshakeError) -> Int {
    // RFC 7692 §7.1.2: 1*DIGIT without leading zeros, 8 to 15.
    guard let value, !value.isEmpty, value.first != "0", value.allSatisfy(\.isASCII),
      let bits = Int(value), DeflateOffer.windowBits.contains(bits)
    else {
      throw .invalidExtension("\(name)=\(value ?? "") is not a window size from 8 to 15")
    }
    return bits
  }

  private static func unquoted(_ text: String) -> String {
    text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"")
      ? String(text.dropFirst().dropLast()) : text
  }
}

/// Why a compressed message could not be inflated.
public enum InflateError: Error, Sendable, Hashable {
  /// The inflated message would pass `limit` bytes.
  case tooLarge(limit: Int)
  /// The bytes are not a valid deflate stream.
  case corrupt(String)
}

/// One connection's compressor and decompressor (the runtime's: system zlib). Used by one
/// connection only, from one thread at a time.
public protocol MessageCompressor: AnyObject, Sendable {
  /// Inflates part of one message's compressed payload, appending to `output`, and throws
  /// rather than let `output` pass `limit` bytes. What inflated before a failure (up to the
  /// limit) is appended. `final`: the message ends here (the 00 00 FF FF tail RFC 7692
  /// strips is added).
  func inflate(
    _ input: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8], limit: Int
  ) throws(InflateError)
  /// One whole message, compressed, without the tail.
  func deflate(_ message: UnsafeRawBufferPointer) -> [UInt8]
}

/// Makes a compressor for what was agreed: the runtime supplies it, the core decides when.
public protocol MessageCompressorFactory: Sendable {
  func make(_ parameters: DeflateParameters) -> any MessageCompressor
}
