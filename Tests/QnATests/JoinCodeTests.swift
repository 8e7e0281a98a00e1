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
}
