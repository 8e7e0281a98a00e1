import QnA
import Testing

@Suite("Join codes")
struct JoinCodeTests {
  @Test func aCodeIsSixLettersWithoutLookAlikesInAnyCase() {
    #expect(JoinCode.canonical("k7m2qx") == "K7M2QX")
    #expect(JoinCode.canonical("K7M2QX") == "K7M2QX")
    for wrong in [
      "K7M2Q", "K7M2QXX", "K7M2Q0", "K7M2QO", "K7M2Q1", "K7M2QI", "K7M2Q-",
      "", "K7M2QÉ",
    ] {
      #expect(JoinCode.canonical(wrong) == nil, "\(wrong)")
    }
  }

  @Test func theSessionsSocketIsOnTheServerOfAnyURL() {
    for (server, expected) in [
      ("ws://127.0.0.1:8080", "ws://127.0.0.1:8080/s/K7M2QX/socket"),
      ("ws://127.0.0.1:8080/socket", "ws://127.0.0.1:8080/s/K7M2QX/socket"),
      ("wss://qna.example/socket?x=1", "wss://qna.example/s/K7M2QX/socket"),
      ("ws://[::1]:9000/", "ws://[::1]:9000/s/K7M2QX/socket"),
      // The page's address, as a user pastes it into --url: its socket, as the page maps it.
      ("http://127.0.0.1:8080", "ws://127.0.0.1:8080/s/K7M2QX/socket"),
      ("HTTPS://qna.example/", "wss://qna.example/s/K7M2QX/socket"),
    ] {
      #expect(JoinCode.socketURL(server: server, code: "K7M2QX") == expected)
    }
    #expect(JoinCode.socketURL(server: "127.0.0.1:8080", code: "K7M2QX") == nil)
    #expect(JoinCode.socketURL(server: "ws://", code: "K7M2QX") == nil)
  }

  /// What `qna-server session create` prints, the QR code holds and the projector shows.
  @Test func theAddressTheServerPrintsNamesTheSessionAndItsSocket() {
    for (typed, code, socket) in [
      ("http://127.0.0.1:8080/s/K7M2QX/", "K7M2QX", "ws://127.0.0.1:8080/s/K7M2QX/socket"),
      ("https://qna.example/s/k7m2qx", "K7M2QX", "wss://qna.example/s/K7M2QX/socket"),
      (
        "https://example.org/qna/s/K7M2QX/?from=qr#top", "K7M2QX",
        "wss://example.org/qna/s/K7M2QX/socket"
      ),
      ("ws://[::1]:9000/s/K7M2QX/socket", "K7M2QX", "ws://[::1]:9000/s/K7M2QX/socket"),
      ("wss://qna.example/s/K7M2QX/screen", "K7M2QX", "wss://qna.example/s/K7M2QX/socket"),
    ] {
      let link = JoinCode.link(typed)
      #expect(link?.code == code && link?.socket == socket, "\(typed)")
    }
    for wrong in [
      "K7M2QX", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/s/", "http://h/s/K7M2Q0/",
      "http:///s/K7M2QX/", "://h/s/K7M2QX/", "http://h/x/K7M2QX/",
    ] {
      #expect(JoinCode.link(wrong) == nil, "\(wrong)")
    }
  }

  /// Extension `tickets`: 16 characters of the code's alphabet, in any case, dashes or not;
  /// links carry one in their fragment; the server keeps its SHA-256.
  @Test func aTicketIsSixteenLettersAndALinkCarriesItInItsFragment() {
    #expect(Ticket.canonical("k7m2-qx4p-9hrt-wz3c") == "K7M2QX4P9HRTWZ3C")
    #expect(Ticket.canonical("K7M2 QX4P 9HRT WZ3C") == "K7M2QX4P9HRTWZ3C")
    for wrong in [
      "", "K7M2QX4P9HRTWZ3", "K7M2QX4P9HRTWZ3CC", "O7M2QX4P9HRTWZ3C", "K7M2QX4P9HRTWZ3Ç",
    ] {
      #expect(Ticket.canonical(wrong) == nil, "\(wrong)")
    }
    #expect(Ticket.grouped("K7M2QX4P9HRTWZ3C") == "K7M2-QX4P-9HRT-WZ3C")
    let link = Ticket.link("http://qna.example/s/K7M2QX/", ticket: "K7M2QX4P9HRTWZ3C")
    #expect(link == "http://qna.example/s/K7M2QX/#ticket=K7M2-QX4P-9HRT-WZ3C")
    #expect(Ticket.inLink(link) == "K7M2QX4P9HRTWZ3C")
    #expect(JoinCode.link(link)?.code == "K7M2QX")
    for other in [
      "http://qna.example/s/K7M2QX/", "http://h/s/K7M2QX/#tickets=K7M2QX4P9HRTWZ3C",
      "http://h/s/K7M2QX/#ticket=nope",
    ] {
      #expect(Ticket.inLink(other) == nil, "\(other)")
    }
    // SHA-256 of the 16 ASCII bytes, as Python's hashlib has it.
    #expect(
      Ticket.digest("K7M2QX4P9HRTWZ3C")
        == "bc7abfaa263b14366987733a2ed680081b45a91361eb4c3eb1909f86070e42b5")
  }
}
