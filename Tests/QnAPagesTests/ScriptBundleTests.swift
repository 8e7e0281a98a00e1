import Foundation
import QnAPages
import TestSupport
import Testing

/// Each page's script served as one file with the modules it imports (`ScriptBundle`), run by
/// Node to show it does what the modules do.
@Suite("The pages' scripts, bundled")
struct ScriptBundleTests {
  static let modules = [
    "numbers.js": "export const TWO = 2;\nexport function twice(n) { return n * TWO; }\n",
    "words.js": """
    import { twice as double } from './numbers.js';
    const hidden = 'kept apart';
    export class Counter { constructor() { this.n = double(1); } }
    export async function later() { return hidden; }

    """,
    "page.js": """
    import { TWO, twice } from './numbers.js';
    import { Counter, later } from './words.js';
    const hidden = 'the page\\'s own';
    later().then((text) => console.log(JSON.stringify([TWO, twice(3), new Counter().n, text, hidden])));

    """,
  ]

  @Test func aBundleRunsItsModulesOnceInOrderEachApart() throws {
    let bundle = try ScriptBundle.bundle("page.js", modules: Self.modules)
    #expect(!bundle.contains("import ") && !bundle.contains("export "))
    let numbers = try #require(bundle.range(of: "const qna$numbers = (() => {"))
    let words = try #require(bundle.range(of: "const qna$words = (() => {"))
    #expect(numbers.lowerBound < words.lowerBound, "what a module imports comes before it")
    #expect(bundle.components(separatedBy: "export const TWO").count == 1)
    #expect(try NodeRun.output(of: bundle) == "[2,6,2,\"kept apart\",\"the page's own\"]\n")
  }

  @Test func whatItCannotReadIsServedAsItIs() {
    var cycle = Self.modules
    cycle["numbers.js"] = "import { Counter } from './words.js';\nexport const TWO = 2;\n"
    #expect(throws: ScriptBundle.Failure.cycle(module: "numbers.js")) {
      try ScriptBundle.bundle("page.js", modules: cycle)
    }
    var unread = Self.modules
    unread["numbers.js"] = "export default 2;\n"
    #expect(
      throws: ScriptBundle.Failure.unreadable(module: "numbers.js", line: "export default 2;")
    ) {
      try ScriptBundle.bundle("page.js", modules: unread)
    }
    var missing = Self.modules
    missing["words.js"] = nil
    #expect(throws: ScriptBundle.Failure.missing(module: "words.js", importedBy: "page.js")) {
      try ScriptBundle.bundle("page.js", modules: missing)
    }
    #expect(ScriptBundle.served(unread) == unread)
  }

  /// The pages' and the worker's scripts are served bundled, each a module Node parses; the
  /// modules are served as they are beside them.
  @Test func everyPageScriptIsServedAsOneFile() throws {
    let served = Dictionary(uniqueKeysWithValues: PageAssets.served.map { ($0.name, $0.text) })
    #expect(Set(served.keys) == Set(PageAssets.all.map(\.name)))
    for entry in ["room.js", "presenter.js", "screen.js", "identity-work-worker.js"] {
      let bundle = try #require(served[entry])
      #expect(!bundle.split(separator: "\n").contains { $0.hasPrefix("import ") }, "\(entry)")
      let directory = try TemporaryDirectory()
      let path = directory.path(entry.replacingOccurrences(of: ".js", with: ".mjs"))
      try bundle.write(toFile: path, atomically: true, encoding: .utf8)
      let check = try ProgramRun("/usr/bin/node", ["--check", path])
      #expect(check.status == 0, "\(entry): \(check.errors)")
    }
    for asset in ["common.js", "room.css"] {
      #expect(served[asset] == PageAssets.text(asset).map { PageAssets.shrunk(asset, $0) })
    }
  }
}
