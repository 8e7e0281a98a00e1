/// A close status code (RFC 6455 §7.4, and the IANA "WebSocket Close Code Number" registry).
public struct CloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  public let rawValue: UInt16

  public init(rawValue: UInt16) { self.rawValue = rawValue }
  public init(_ rawValue: UInt16) { self.rawValue = rawValue }

  public static let normalClosure = CloseCode(1000)
  public static let goingAway = CloseCode(1001)
  public static let protocolError = CloseCode(1002)
  public static let unsupportedData = CloseCode(1003)
  /// Reported when a close frame had no status code; never sent.
  public static let noStatusReceived = CloseCode(1005)
  /// Reported when the connection ended without a close frame; never sent.
  public static let abnormalClosure = CloseCode(1006)
  public static let invalidPayloadData = CloseCode(1007)
  public static let policyViolation = CloseCode(1008)
  public static let messageTooBig = CloseCode(1009)
  public static let mandatoryExtension = CloseCode(1010)
  public static let internalError = CloseCode(1011)
  public static let serviceRestart = CloseCode(1012)
  public static let tryAgainLater = CloseCode(1013)
  public static let badGateway = CloseCode(1014)

  /// Whether the code may appear in a close frame. 1004, 1005, 1006 and 1015 are reserved
  /// for reporting, 1016–2999 are unassigned protocol codes, and codes under 1000 or from
  /// 5000 on are not used.
  public var isAllowedOnWire: Bool {
    switch rawValue {
    case 1000...1003, 1007...1014, 3000...4999: true
    default: false
    }
  }

  public var description: String {
    let name: String? =
      switch rawValue {
      case 1000: "normal closure"
      case 1001: "going away"
      case 1002: "protocol error"
      case 1003: "unsupported data"
      case 1005: "no status received"
      case 1006: "abnormal closure"
      case 1007: "invalid payload data"
      case 1008: "policy violation"
      case 1009: "message too big"
      case 1010: "mandatory extension"
      case 1011: "internal error"
      case 1012: "service restart"
      case 1013: "try again later"
      case 1014: "bad gateway"
      default: nil
      }
    return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
  }
}

/// The payload of a close frame: an optional status code and a UTF-8 reason.
public struct CloseFrame: Sendable, Hashable {
  /// `nil` when the frame carried no payload (reported as 1005).
  public var code: CloseCode?
  public var reason: String

  public init(code: CloseCode?, reason: String = "") {
    self.code = code
    self.reason = code == nil ? "" : reason
  }

  /// RFC 6455 §5.5.1: empty, or a 2-byte code followed by a UTF-8 reason.
  public init(parsing payload: [UInt8]) throws(ProtocolError) {
    guard !payload.isEmpty else {
      self.init(code: nil)
      return
    }
    guard payload.count >= 2 else { throw .closePayloadTooShort }
    let code = CloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
    guard code.isAllowedOnWire else { throw .invalidCloseCode(code.rawValue) }
    let reasonBytes = Array(payload[2...])
    guard UTF8Validator.isValid(reasonBytes) else { throw .invalidCloseReason }
    self.init(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
  }

  public var payload: [UInt8] {
    guard let code else { return [] }
    return [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
      + Array(reason.utf8)
  }
}
