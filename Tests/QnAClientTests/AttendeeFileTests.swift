import Foundation
import QnAClient
import Synchronization
import TestSupport
import Testing

/// The attendee file that every `qna` of one user shares in its state directory.
@Suite("The attendee file")
struct AttendeeFileTests {
  /// Started together on an empty directory, every process must come away with the one id
  /// the file keeps: a rename over another's file would leave the first with an id of its
  /// own that the next start no longer knows.
  @Test func loadsAtOnceOnAnEmptyDirectoryAllKeepOneId() throws {
    for _ in 0..<20 {
      let directory = HeadlessProcess.freshDirectory()
      let file = AttendeeFile(directory: directory, serverURL: "ws://127.0.0.1:8080/socket")
      let loaded = Mutex<[UUID]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        if let identity = try? file.load(orMake: { UUID() }) {
          loaded.withLock { $0.append(identity.attendee) }
        }
      }
      let ids = loaded.withLock { $0 }
      #expect(ids.count == 8 && Set(ids).count == 1, "\(ids)")
      #expect(try file.load(orMake: { UUID() }).attendee == ids.first)
    }
  }

  @Test func whatIsKeptIsLoadedBackWithItsCredential() throws {
    let file = AttendeeFile(
      directory: HeadlessProcess.freshDirectory(), serverURL: "ws://127.0.0.1:8080/socket")
    let made = try file.load(orMake: { uuid(1) })
    #expect(made == .init(attendee: uuid(1), credential: nil))
    try file.keep(.init(attendee: uuid(1), credential: uuid(2)))
    #expect(try file.load(orMake: { uuid(3) }) == .init(attendee: uuid(1), credential: uuid(2)))
  }
}
