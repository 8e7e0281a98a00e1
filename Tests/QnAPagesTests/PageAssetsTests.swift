import Foundation
import QnA
import QnAPages
import Testing

/// An embedded asset's text; empty (and a failed expectation) when none has that name.
func asset(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
  let text = PageAssets.text(name)
  #expect(text != nil, "no asset \(name)", sourceLocation: sourceLocation)
  return text ?? ""
}

/// The files of Sources/Server/Pages/Assets as the EmbedAssets plugin builds them in.
@Suite("The pages' scripts and style sheets, embedded")
struct PageAssetsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/Server/Pages/Assets").standardized

  /// Every script and style sheet of the folder is in the build, byte for byte, and nothing
  /// else is.
  @Test func everyFileIsEmbeddedAsItIs() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".js") || $0.hasSuffix(".css") }.sorted()
    #expect(names.count >= 6)
    #expect(PageAssets.all.map(\.name) == names)
    for name in names {
      let file = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
      #expect(asset(name) == file, "\(name)")
    }
    #expect(PageAssets.all.allSatisfy { $0.type.hasSuffix("; charset=utf-8") })
    #expect(PageAssets.all.first { $0.name == "room.css" }?.type.hasPrefix("text/css") == true)
    #expect(
      PageAssets.all.first { $0.name == "room.js" }?.type.hasPrefix("text/javascript") == true)
  }

  /// Each module a page script imports is an asset the server serves beside it.
  @Test func everyImportNamesAnAsset() throws {
    let imports = try NSRegularExpression(
      pattern: #"^import .* from '\./([^']+)';$"#,
      options: .anchorsMatchLines)
    var imported: Set<String> = []
    for (name, text, _) in PageAssets.all where name.hasSuffix(".js") {
      for match in imports.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let module = String(text[Range(match.range(at: 1), in: text)!])
        #expect(PageAssets.text(module) != nil, "\(name) imports \(module)")
        imported.insert(module)
      }
    }
    #expect(
      imported == [
        "common.js", "room-socket.js", "room-state.js", "identity-work.js", "tab-sender.js",
        "room-outbox.js", "presenter-api.js", "room-identity.js", "room-polls.js",
        "poll-answers.js", "poll-view.js", "word-cloud.js", "presenter-polls.js",
        "presenter-poll-texts.js", "presenter-keys.js",
      ])
  }

  /// The presenter page's actions on a question are the ones the server routes
  /// (`POST api/questions/ID/ACTION` for each of `PresenterActionKind.questionActions`).
  @Test func thePresenterPageKnowsEveryQuestionActionTheServerRoutes() throws {
    let script = try #require(PageAssets.text("presenter-api.js"))
    let list = try #require(
      script.range(of: #"QUESTION_ACTIONS = \[([^\]]*)\]"#, options: .regularExpression))
    let names = script[list].split(separator: "'").enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    #expect(names == PresenterActionKind.questionActions.map(\.rawValue))
  }
}
