import Foundation
import QnA

/// Questions and votes counted per person, not per socket: every socket of one attendee
/// identity (issued or proved, extension `identity`) shares that identity's buckets, and the
/// sockets of one address that have no identity (never joined: an old client, a script)
/// share that address's question bucket, the size of one person's. A thousand sockets weigh
/// what their identities weigh. A socket the budgets cannot place (loopback, the operator's
/// own; a presenter's) keeps buckets of its own. Shared by every session's room; the tables
/// are bounded as `KeyedBudgets` bounds them, the people's at `maxPeople` (a keynote's
/// crowd, every one of whom keeps a bucket while voting; each identity was paid for at
/// its address, `identityWork` and `newAttendeesPerAddress`).
package final class PersonBudgets: Sendable {
  private let questions: KeyedBudgets<Person>
  private let votes: KeyedBudgets<Person>
  private let unidentifiedQuestions: AddressBudgets
  package static let maxPeople = 100_000

  /// An attendee id names a person within one session: hashed as it is, not as text.
  private struct Person: Hashable, Sendable {
    var session: Int64
    var attendee: UUID
  }

  package init(questions: Int, votes: Int, window: Duration) {
    self.questions = KeyedBudgets(burst: questions, window: window, maxKeys: Self.maxPeople)
    self.votes = KeyedBudgets(burst: votes, window: window, maxKeys: Self.maxPeople)
    unidentifiedQuestions = AddressBudgets(burst: questions, window: window)
  }

  /// `nil` if the socket's person may ask one more question now, else how long until then.
  package func takeQuestion(_ connection: SocketConnection, now: Duration) -> Duration? {
    if !connection.isPresenter, let identity = connection.identity {
      return questions.take(Self.key(connection, identity.attendee), now: now)
    }
    if !connection.isPresenter, let address = connection.address {
      return unidentifiedQuestions.take(address, now: now)
    }
    return connection.takeQuestion(now: now)
  }

  /// A question `takeQuestion` counted was not stored (the store failed): its token back.
  package func giveBackQuestion(_ connection: SocketConnection, now: Duration) {
    if !connection.isPresenter, let identity = connection.identity {
      questions.giveBack(Self.key(connection, identity.attendee), now: now)
    } else if !connection.isPresenter, let address = connection.address {
      unidentifiedQuestions.giveBack(address, now: now)
    } else {
      connection.giveBackQuestion(now: now)
    }
  }

  /// A vote `takeVote` counted was not stored (the store failed): its token back.
  package func giveBackVote(_ connection: SocketConnection, attendee: UUID, now: Duration) {
    votes.giveBack(Self.key(connection, attendee), now: now)
  }

  /// `nil` if `attendee` (the socket's identity) may cast one more vote now, else how long
  /// until then.
  package func takeVote(_ connection: SocketConnection, attendee: UUID, now: Duration)
    -> Duration?
  {
    votes.take(Self.key(connection, attendee), now: now)
  }

  private static func key(_ connection: SocketConnection, _ attendee: UUID) -> Person {
    Person(session: connection.session, attendee: attendee)
  }
}
