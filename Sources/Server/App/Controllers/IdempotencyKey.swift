import Foundation
import HTTPTypes
import Hummingbird
import QnARoom

/// The `Idempotency-Key` header (the IETF draft's): a retried request with the same key acts
/// once.
enum IdempotencyKey {
  static let header = HTTPField.Name("Idempotency-Key")!

  /// Absent, or a UUID: anything else would silently act twice when retried, so it is
  /// refused.
  static func uuid(_ request: Request) throws -> UUID? {
    guard let value = request.headers[header] else { return nil }
    guard let key = UUID(uuidString: value) else {
      throw HTTPError(.badRequest, message: "Idempotency-Key must be a UUID")
    }
    return key
  }

  /// The action's token: the request's key, or a new one that makes it act once as sent.
  static func token(_ request: Request, in room: SessionRoom) throws -> UUID {
    try uuid(request) ?? room.environment.makeID()
  }
}
