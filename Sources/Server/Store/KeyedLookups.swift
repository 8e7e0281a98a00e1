/// Every statement that reads or deletes a list of keys (`PortableSQL.keyed`), made for two
/// keys, with the table it looks them up in: the SQLite driver's tests hold each to a search
/// of an index, never a scan of the table. A new keyed statement belongs here.
package enum KeyedLookups {
  package static let all: [(table: String, statement: PortableSQL)] = [
    ("vote", VoteSQL.counted(rows: 2)),
    ("vote", VoteSQL.remove(rows: 2)),
    ("question", VoteSQL.targets(rows: 2)),
    ("question", QuestionSQL.byIDs(rows: 2)),
    ("question", QuestionSQL.byTokens(rows: 2)),
    ("attendee", RoomReadSQL.names(rows: 2)),
    ("poll", PollSQL.byIDs(rows: 2)),
    ("pollText", PollSQL.releaseTexts(rows: 2)),
    ("pollAnswer", PollSQL.answers(rows: 2)),
    ("pollCount", PollSQL.deleteEmptyCounts(rows: 2)),
    ("pollCount", PollSQL.counts(rows: 2)),
    ("presence", PresenceSQL.leave(rows: 2)),
  ]
}
