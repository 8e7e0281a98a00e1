import Hummingbird
import QnARoom

/// Which room a presenter's route acts on: the default session's at `/`, or the session
/// `/s/{code}/` names, which the presenter's gate found and put in the request's context.
enum PresenterScope: Sendable {
  case main(SessionRoom)
  case session

  func room(_ context: ServerRequestContext) throws -> SessionRoom {
    switch self {
    case .main(let room): return room
    case .session:
      guard let room = context.session?.room else {
        throw HTTPError(.notFound, message: "no such session")
      }
      return room
    }
  }

  /// The session's code; `nil` for the default room.
  func code(_ context: ServerRequestContext) -> String? {
    switch self {
    case .main: nil
    case .session: context.session?.record.code
    }
  }

  /// Where the presenter's pages are: `/` or `/s/CODE/`.
  func base(_ context: ServerRequestContext) -> String {
    code(context).map { "/s/\($0)/" } ?? "/"
  }

  /// The session's title; the default room has none.
  func title(_ context: ServerRequestContext) -> String? {
    switch self {
    case .main: nil
    case .session: context.session?.record.title
    }
  }
}
