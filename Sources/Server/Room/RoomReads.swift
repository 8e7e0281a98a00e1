import Foundation
import QnA
import QnAStore

/// What the room's fan-out reads of the store: the room's epoch and sequence, its snapshot,
/// what changed over a range of its log, and an attendee's own part. The store is the one the
/// server uses; the fan-out's tests give it a room of their own, with its faults.
package protocol RoomReads: Sendable {
  func roomEpoch() async throws(StoreError) -> UUID
  func currentSeq() async throws(StoreError) -> Int
  func view(of attendee: UUID, presenter: Bool) async throws(StoreError) -> AttendeeView
  func snapshot(for attendee: UUID?, presenter: Bool) async throws(StoreError)
    -> StoredRoomSnapshot
  func changes(after: Int, upTo: Int, presenter: Bool) async throws(StoreError) -> RoomChanges
}

extension QuestionStore: RoomReads {}
