/// What `qna screen` shows besides the room: where and how to join it.
public struct ProjectorScreen: Sendable, Equatable {
  /// The attendee page's address, as a phone should open it.
  public var joinAddress: String
  public var code: String?
  /// The address's QR code in half blocks (dark: the glyphs), quiet zone included.
  public var qr: [String]

  public init(joinAddress: String, code: String?, qr: [String]) {
    self.joinAddress = joinAddress
    self.code = code
    self.qr = qr
  }

  /// Questions under the highlighted one.
  static let upNext = 5
}
