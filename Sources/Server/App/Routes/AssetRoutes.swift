import Hummingbird
import QnAPages

extension QnAServerApp {
  /// The pages' script and style sheet, as files of the server's own origin: the
  /// Content-Security-Policy lets no inline one run. Open to all, like the login form: they
  /// hold no data, and a browser fetches them before it logs in.
  func addAssetRoutes(to router: Router<ServerRequestContext>) {
    router.get("/assets/presenter.js") { _, _ in
      Self.asset(PresenterScript.source, type: "text/javascript; charset=utf-8")
    }
    router.get("/assets/presenter.css") { _, _ in
      Self.asset(PresenterPage.stylesheet, type: "text/css; charset=utf-8")
    }
    router.get("/assets/room.js") { _, _ in
      Self.asset(AttendeeScript.source, type: "text/javascript; charset=utf-8")
    }
    router.get("/assets/screen.js") { _, _ in
      Self.asset(ProjectorScript.source, type: "text/javascript; charset=utf-8")
    }
    router.get("/assets/room.css") { _, _ in
      Self.asset(RoomStyle.source, type: "text/css; charset=utf-8")
    }
  }

  static func asset(_ text: String, type: String) -> Response {
    Response(
      status: .ok,
      headers: [.contentType: type, .cacheControl: "no-cache"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
