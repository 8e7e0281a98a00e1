import Foundation
import QnA
import TestSupport
import Testing

@Suite("QnAState: protocol extensions and their absence")
struct ExtensionTests {
  let all = [ProtocolExtension.token, ProtocolExtension.resume]

  @Test func aReconnectPresentsUnansweredQuestionsToAServerThatCanResume() {
    var harness = Harness()
    harness.apply(.received(.handshake(Handshake(id: firstConnection, extensions: all))))
    harness.ask("open", 1)
    harness.ask("answered", 2)
    harness.respond("open", id: 10)
    harness.respond("answered", id: 11, answered: true)
    harness.apply(.disconnected(reason: "drop", retry: nil))
    let effects = harness.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: all))))
    #expect(
      effects.contains(.resume(Resume(id: secondConnection, questions: [uuid(10, group: 0x5E)]))))
    #expect(!effects.changeNames.contains("notice"))
    // The server's reply: the answer given while away arrives as a repeated response.
    #expect(harness.respond("open", id: 10, answered: true).changeNames == ["answered"])
  }

  /// A server that reads small messages says so: the resume comes in pieces under its limit,
  /// so no reconnect ends in a 1009 that the next one would repeat.
  @Test func aResumeFitsTheMessageLimitTheServerAnnounces() throws {
    var harness = Harness()
    harness.apply(.received(.handshake(Handshake(id: firstConnection, extensions: all))))
    for n in 1...200 {
      harness.ask("q\(n)", n)
      harness.respond("q\(n)", id: 1000 + n)
    }
    harness.apply(.disconnected(reason: "drop", retry: nil))
    for limit in [4096, 16_384, 125] {
      let effects = harness.apply(
        .received(
          .handshake(Handshake(id: secondConnection, extensions: all, maxMessageSize: limit))))
      let resumes = effects.compactMap { if case .resume(let resume) = $0 { resume } else { nil } }
      #expect(resumes.flatMap(\.questions).count == 200)
      let codec = WireCodec()
      let largest = resumes.map { codec.encode(.resume($0)).count }.max() ?? 0
      #expect(largest <= max(limit, 150), "\(largest) bytes under a limit of \(limit)")
      harness.apply(.disconnected(reason: "drop", retry: nil))
    }
  }

  @Test func withoutExtensionsAReconnectSaysOnceWhatMayGoWrong() {
    var harness = Harness()
    harness.connect(firstConnection)
    harness.ask("asked", 1)
    harness.respond("asked", id: 10)
    harness.ask("in flight", 2)
    harness.apply(.disconnected(reason: "drop", retry: nil))
    let effects = harness.apply(.received(.handshake(Handshake(id: secondConnection))))
    #expect(!effects.contains { if case .resume = $0 { true } else { false } })
    let notices = harness.state.notices.map(\.text)
    #expect(notices.contains { $0.contains("answers given while you were disconnected") })
    #expect(notices.contains { $0.contains("it may show some twice") })
    #expect(effects.sent.map(\.content) == ["in flight"], "resent all the same")

    harness.ask("again in flight", 3)
    harness.apply(.disconnected(reason: "drop", retry: nil))
    let again = harness.apply(.received(.handshake(Handshake(id: firstConnection))))
    #expect(!again.changeNames.contains("notice"), "each is said once")
  }

  @Test func theFirstHandshakeOfAnOldServerSaysNothing() {
    var harness = Harness()
    harness.ask("queued before connecting", 1)
    let effects = harness.apply(.received(.handshake(Handshake(id: firstConnection))))
    #expect(!effects.changeNames.contains("notice"))
    #expect(effects.sent.count == 1)
  }

  @Test func pendingQuestionsAreEveryUnconfirmedOneTheRefusedIncluded() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("sending", 1)
    harness.ask("refused", 2)
    harness.ask("created", 3)
    harness.respond("refused", id: nil, success: false, message: "no", token: 2)
    harness.respond("created", id: 30, token: 3)
    #expect(harness.state.pendingQuestions.map(\.content) == ["sending", "refused"])
    #expect(harness.status(2) == .failed(reason: "no"))
  }

  @Test func aServerThatEchoesTokensIsBelievedOnlyByToken() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("mine", 1)
    harness.respond("mine", id: nil, success: false, message: "forged")
    harness.respond("mine", id: 40)
    harness.respond("mine", id: 41, token: 99)
    #expect(harness.status(1) == .sending, "nothing without its token")
    harness.respond("mine", id: 42, token: 1)
    #expect(harness.status(1) == .unanswered)
  }

  @Test func resumeAndExtensionsRoundTripOnTheWire() throws {
    let codec = WireCodec()
    let resume = WireMessage.resume(
      Resume(id: firstConnection, questions: [uuid(1)], tokens: [uuid(2)]))
    #expect(try codec.decode(codec.encode(resume)) == resume)
    let handshake = WireMessage.handshake(Handshake(id: firstConnection, extensions: all))
    #expect(try codec.decode(codec.encode(handshake)) == handshake)
    // An existing back end's handshake has no extensions key at all.
    let plain = String(
      decoding: codec.encode(.handshake(Handshake(id: firstConnection))), as: UTF8.self)
    #expect(!plain.contains("extensions"))
  }
}
