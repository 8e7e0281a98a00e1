import Foundation
import QnAPages
import TestSupport
import Testing

/// The scripts and style sheets as served, without comments and indentation
/// (`ScriptShrinking`, `StyleShrinking`): the same program, fewer bytes.
@Suite("The pages' scripts and style sheets, shrunk")
struct ShrinkingTests {
  /// Every place a `//`, a `/*` or a quote is not what it looks like, and each place a line
  /// break ends a statement.
  static let tricky = #"""
    // A comment's 'quote, and a `backtick
    /* A block comment's "quote */
    const url = 'http://example.org/*not a comment*/'; // a comment after code
    const path = "a // b";
    const spaced = /[/]+\/\/ \//g; /* a regular expression that holds slashes */
    const ratio = (6) / 2 / 3;
    const halves = [8][0] / 2;
    function rate(a, b) {
      return /x/.test('x') ? a / b : 0;
    }
    const block = `first
        indented // kept: a template's text
      ${ { key: 'in a substitution' }.key /* gone */ } ${`nested ${ratio}`}`;
    let a = 1
    let b = a
    ++b
    /**
     * A comment over lines between two statements.
     */
    const tail = a/**/+b;
    // A regular expression after an if's parentheses; divisions after a postfix ++ and after a
    // property named like a keyword, each with a comment that holds a /* (a misread slash
    // would take the lines below it for a comment).
    let matched = 'no';
    if (url) /a  b/.test('a  b') ? (matched = 'match') : 0;
    let i = 4;
    const half = i++ / 2 // see /* below
    let total = 0
    total += 10
    // */
    const box = { in: 8 };
    const width = box.in / 2 // px /* x
    const spread = [...[1, 2]].length / 2 /* r */
    let separated = 1 // a line separator ends this comment:\#u{2028}separated = 2
    console.log(JSON.stringify([url, path, 'a//b/c'.replace(spaced, '|'), ratio, halves,
      rate(9, 3), block, a, b, tail, matched, half, total, width, spread, separated]));

    """#

  @Test func aShrunkScriptDoesWhatItsSourceDid() throws {
    let shrunk = try ScriptShrinking.script(Self.tricky)
    #expect(try NodeRun.output(of: shrunk) == (try NodeRun.output(of: Self.tricky)))
    for gone in ["A comment", "a comment after", "gone", "over lines", "  const"] {
      #expect(!shrunk.contains(gone), "\(gone)")
    }
    #expect(shrunk.contains("`first\n    indented // kept: a template's text\n  ${"))
    #expect(shrunk.contains("'http://example.org/*not a comment*/'"))
    #expect(shrunk.contains("let a = 1\nlet b = a\n++b\n"), "the line breaks that end statements")
    #expect(!shrunk.contains("\n\n") && !shrunk.contains(" \n"))
  }

  @Test func whatEndsInsideAStringOrCommentIsRefused() {
    let cases: [(String, ScriptShrinking.Failure)] = [
      ("const a = 'open\n';", .unterminated("string", offset: 10)),
      ("const a = 1; /* open", .unterminated("comment", offset: 13)),
      ("const a = `open ${b", .unterminated("template", offset: 10)),
      ("const a = /open\n/;", .unterminated("regular expression", offset: 10)),
    ]
    for (script, failure) in cases {
      #expect(throws: failure) { try ScriptShrinking.script(script) }
      #expect(PageAssets.shrunk("page.js", script) == script, "served as it is")
    }
  }

  @Test func aShrunkStyleSheetKeepsItsRules() throws {
    let sheet = """
      /* The page's colours,
         light or dark. */
      :root { --fg: #1a1a1a; }
      .attendee   header,
        .a/**/.b { content: "/* kept */"; margin: 0 auto; }

      """
    #expect(
      try StyleShrinking.styleSheet(sheet)
        == ":root { --fg: #1a1a1a; }\n.attendee header,\n.a.b { content: \"/* kept */\"; margin: 0 auto; }\n"
    )
    // Comments between two words leave them apart; a url's /* is the address's; an escaped
    // space stays in its name.
    #expect(
      try StyleShrinking.styleSheet(
        "a { margin: 0/* top */auto; background: url(http://x/a/*.png) } /* b */\n"
          + "@media screen and/**/(min-width: 9px) { .c\\  .d { x: 1 } }\n")
        == "a { margin: 0 auto; background: url(http://x/a/*.png) }\n"
        + "@media screen and (min-width: 9px) { .c\\  .d { x: 1 } }\n")
    #expect(throws: ScriptShrinking.Failure.unterminated("string", offset: 13)) {
      try StyleShrinking.styleSheet("a { content: 'open }")
    }
  }

  /// Each module's unit tests (Tests/Web) pass on the module as served: the modules shrunk
  /// into a copy of the tree, the tests and their fixtures beside them.
  @Test func theModulesTestsPassOnTheShrunkModules() throws {
    let root = PeerProcess.packageRoot
    let copy = try TemporaryDirectory()
    let files = FileManager.default
    let assets = copy.path("Sources/Server/Pages/Assets")
    try files.createDirectory(atPath: assets, withIntermediateDirectories: true)
    try files.createDirectory(atPath: copy.path("Tests"), withIntermediateDirectories: true)
    for folder in ["Tests/Web", "Tests/Fixtures"] {
      try files.copyItem(
        atPath: root.appendingPathComponent(folder).path, toPath: copy.path(folder))
    }
    // The console's keys, which the presenter page's keys are checked against.
    try files.createDirectory(
      atPath: copy.path("Sources/QnATerminal"), withIntermediateDirectories: true)
    try files.copyItem(
      atPath: root.appendingPathComponent("Sources/QnATerminal/PresenterHelp.swift").path,
      toPath: copy.path("Sources/QnATerminal/PresenterHelp.swift"))
    for asset in PageAssets.all {
      #expect(
        asset.name.hasSuffix(".css") || PageAssets.shrunk(asset.name, asset.text) != asset.text,
        "\(asset.name) is shrunk")
      try PageAssets.shrunk(asset.name, asset.text).write(
        toFile: "\(assets)/\(asset.name)", atomically: true, encoding: .utf8)
    }
    try "{\"type\": \"module\"}\n".write(
      toFile: "\(assets)/package.json", atomically: true, encoding: .utf8)
    let run = try ProgramRun("/usr/bin/node", ["--test", copy.path("Tests/Web")])
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    #expect(run.output.contains("# fail 0"))
  }
}
