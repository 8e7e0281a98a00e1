#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why bytes from the wire are not a message we know. Such messages are logged, counted and
/// ignored; they never end a connection.
public enum WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Not JSON, or not an object with a string `type`.
  case malformed(String)
  case unknownType(String)
  /// A known `type` whose fields are missing or of the wrong kind.
  case invalidFields(type: String, detail: String)

  public var description: String {
    switch self {
    case .malformed(let detail): "malformed message: \(detail)"
    case .unknownType(let type): "unknown message type \"\(type)\""
    case .invalidFields(let type, let detail): "invalid \(type) message: \(detail)"
    }
  }
}

/// JSON in and out as docs/protocol.md has it: Foundation's defaults (dates as seconds since
/// 2001-01-01, upper-case UUIDs, nil optionals omitted), tolerant of ISO-8601 date strings,
/// `null` optionals and lower-case UUIDs on the way in.
public struct WireCodec: Sendable {
  // Made once per codec, not per message: both are reusable and Sendable.
  private let decoder: JSONDecoder
  private let encoder = JSONEncoder()

  public init() {
    decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom(WireDate.decode)
  }

  public func decode(_ bytes: some Collection<UInt8>) throws(WireDecodingError) -> WireMessage {
    let data = Data(bytes)
    let type: String
    do {
      type = try decoder.decode(TypeOnly.self, from: data).type
    } catch {
      throw .malformed(Self.summary(of: error))
    }
    do {
      switch type {
      case Handshake.type:
        return .handshake(try decoder.decode(Handshake.self, from: data))
      case NewQuestion.type:
        return .newQuestion(try decoder.decode(NewQuestion.self, from: data))
      case QuestionResponse.type:
        return .questionResponse(try decoder.decode(QuestionResponse.self, from: data))
      case QuestionAnswer.type:
        return .questionAnswer(try decoder.decode(QuestionAnswer.self, from: data))
      case Resume.type:
        return .resume(try decoder.decode(Resume.self, from: data))
      case Resumed.type:
        return .resumed(try decoder.decode(Resumed.self, from: data))
      case Join.type: return .join(try decoder.decode(Join.self, from: data))
      case Joined.type: return .joined(try decoder.decode(Joined.self, from: data))
      case RoomSnapshot.type: return .room(try decoder.decode(RoomSnapshot.self, from: data))
      case RoomDelta.type: return .roomDelta(try decoder.decode(RoomDelta.self, from: data))
      case RoomOwn.type: return .roomOwn(try decoder.decode(RoomOwn.self, from: data))
      case Refusal.type: return .refusal(try decoder.decode(Refusal.self, from: data))
      case Vote.type: return .vote(try decoder.decode(Vote.self, from: data))
      case VoteResponse.type:
        return .voteResponse(try decoder.decode(VoteResponse.self, from: data))
      case PresenterAction.type:
        return .presenterAction(try decoder.decode(PresenterAction.self, from: data))
      case PresenterActionResponse.type:
        return .presenterActionResponse(
          try decoder.decode(PresenterActionResponse.self, from: data))
      case Audience.type: return .audience(try decoder.decode(Audience.self, from: data))
      case SessionNews.type:
        return .sessionNews(try decoder.decode(SessionNews.self, from: data))
      case PollAnswer.type: return .pollAnswer(try decoder.decode(PollAnswer.self, from: data))
      case PollAnswerResponse.type:
        return .pollAnswerResponse(try decoder.decode(PollAnswerResponse.self, from: data))
      case PollAction.type: return .pollAction(try decoder.decode(PollAction.self, from: data))
      case PollActionResponse.type:
        return .pollActionResponse(try decoder.decode(PollActionResponse.self, from: data))
      default:
        throw WireDecodingError.unknownType(type)
      }
    } catch let error as WireDecodingError {
      throw error
    } catch {
      throw .invalidFields(type: type, detail: Self.summary(of: error))
    }
  }

  public func encode(_ message: WireMessage) -> [UInt8] {
    let data: Data
    do {
      switch message {
      case .handshake(let body): data = try encoder.encode(Typed(body))
      case .newQuestion(let body): data = try encoder.encode(Typed(body))
      case .questionResponse(let body): data = try encoder.encode(Typed(body))
      case .questionAnswer(let body): data = try encoder.encode(Typed(body))
      case .resume(let body): data = try encoder.encode(Typed(body))
      case .resumed(let body): data = try encoder.encode(Typed(body))
      case .join(let body): data = try encoder.encode(Typed(body))
      case .joined(let body): data = try encoder.encode(Typed(body))
      case .room(let body): data = try encoder.encode(Typed(body))
      case .roomDelta(let body): data = try encoder.encode(Typed(body))
      case .roomOwn(let body): data = try encoder.encode(Typed(body))
      case .refusal(let body): data = try encoder.encode(Typed(body))
      case .vote(let body): data = try encoder.encode(Typed(body))
      case .voteResponse(let body): data = try encoder.encode(Typed(body))
      case .presenterAction(let body): data = try encoder.encode(Typed(body))
      case .presenterActionResponse(let body): data = try encoder.encode(Typed(body))
      case .audience(let body): data = try encoder.encode(Typed(body))
      case .sessionNews(let body): data = try encoder.encode(Typed(body))
      case .pollAnswer(let body): data = try encoder.encode(Typed(body))
      case .pollAnswerResponse(let body): data = try encoder.encode(Typed(body))
      case .pollAction(let body): data = try encoder.encode(Typed(body))
      case .pollActionResponse(let body): data = try encoder.encode(Typed(body))
      }
    } catch {
      // Every field is a string, number, bool or finite date: encoding cannot fail.
      preconditionFailure("wire message failed to encode: \(error)")
    }
    return Array(data)
  }

  /// The bytes one room question takes on the wire, to fill pages up to a size.
  public func encodedSize(of question: RoomQuestion) -> Int {
    (try? encoder.encode(question).count) ?? question.content.utf8.count * 6 + 200
  }

  /// The bytes a poll, its results or a whole delta take on the wire, to fill pages up to a
  /// size.
  public func encodedSize(of value: some Encodable) -> Int {
    (try? encoder.encode(value).count) ?? 64 * 1024
  }

  /// The bytes `text` takes as a JSON string (quotes included), escapes and all.
  public static func encodedSize(ofString text: String) -> Int {
    (try? JSONEncoder().encode(text).count) ?? text.utf8.count * 6 + 2
  }

  /// One line a log can carry, without the decoder's nested context dump.
  private static func summary(of error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      context.codingPath.isEmpty
        ? "not a JSON object"
        : "bad \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\": "
          + context.debugDescription
    default: "\(error)"
    }
  }
}

/// The first decoding pass: `type` only.
private struct TypeOnly: Decodable {
  var type: String
}

/// A message body with its `type` key added on encoding.
private struct Typed<Body: WireBody>: Encodable {
  let body: Body
  let type: String

  init(_ body: Body) {
    self.body = body
    type = Body.type
  }

  private enum CodingKeys: String, CodingKey { case type }

  func encode(to encoder: any Encoder) throws {
    try body.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
  }
}

protocol WireBody: Codable {
  static var type: String { get }
}

extension Handshake: WireBody {}
extension NewQuestion: WireBody {}
extension QuestionResponse: WireBody {}
extension QuestionAnswer: WireBody {}
extension Resume: WireBody {}
extension Resumed: WireBody {}
