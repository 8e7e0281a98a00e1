import Foundation
import QnA

/// A session's attendance in one minute: the most attendees present at once, and how many
/// were when it ended (what the minutes after it without a row of their own kept).
public struct AttendanceMinute: Sendable, Hashable {
  public var start: Date
  public var peak: Int
  public var last: Int

  public init(start: Date, peak: Int, last: Int) {
    self.start = start
    self.peak = peak
    self.last = last
  }
}

/// Everything a session's report shows, read from its store (`QuestionStore.report`).
public struct SessionReportData: Sendable {
  public var questions: [ExportedQuestion]
  /// When each vote, and each poll answer (as last given), came.
  public var voteTimes: [Date]
  public var pollAnswerTimes: [Date]
  /// Every poll as presenters see it, and each open text's entries.
  public var polls: [RoomPoll]
  public var entries: [UUID: [PollTextEntry]]
  public var attendance: [AttendanceMinute]
  /// Attendees who were ever in the room (presenters and screens not counted).
  public var attendees: Int

  /// The most attendees present at once in any minute.
  public var peak: Int { attendance.map(\.peak).max() ?? 0 }

  public init(
    questions: [ExportedQuestion], voteTimes: [Date] = [], pollAnswerTimes: [Date] = [],
    polls: [RoomPoll] = [], entries: [UUID: [PollTextEntry]] = [:],
    attendance: [AttendanceMinute] = [], attendees: Int = 0
  ) {
    self.questions = questions
    self.voteTimes = voteTimes
    self.pollAnswerTimes = pollAnswerTimes
    self.polls = polls
    self.entries = entries
    self.attendance = attendance
    self.attendees = attendees
  }
}

extension QuestionStore {
  /// The session's report: its questions, votes, polls and attendance.
  public func report() async throws(StoreError) -> SessionReportData {
    let session = self.session
    let key = SQLValue.integer(session)
    let times = try await timed {
      try await driver.fetch(
        .rows(ReportSQL.voteTimes, [key]) { votes in
          .rows(ReportSQL.pollAnswerTimes, [key]) { answers in
            .rows(ReportSQL.attendees, [key]) { attendees in
              .rows(AttendanceSQL.minutes, [key]) { minutes in
                .done(
                  (
                    votes: votes.compactMap(\.referenceDate),
                    answers: answers.compactMap(\.referenceDate),
                    attendees: attendees.first?.int(0) ?? 0,
                    minutes: minutes.compactMap { row -> AttendanceMinute? in
                      guard let minute = row.integer(0), let peak = row.int(1),
                        let last = row.int(2)
                      else { return nil }
                      return AttendanceMinute(
                        start: Date(timeIntervalSince1970: Double(minute) * 60), peak: peak,
                        last: last)
                    }
                  ))
              }
            }
          }
        })
    }
    return SessionReportData(
      questions: try await export(), voteTimes: times.votes, pollAnswerTimes: times.answers,
      polls: try await polls(), entries: try await textEntries(), attendance: times.minutes,
      attendees: times.attendees)
  }
}

extension SQLRow {
  /// The first column as a time in seconds since 2001, as the store keeps times.
  fileprivate var referenceDate: Date? { real(0).map(Date.init(timeIntervalSinceReferenceDate:)) }
}
