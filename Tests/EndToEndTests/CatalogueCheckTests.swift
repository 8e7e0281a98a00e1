import Foundation
import TestSupport
import Testing

/// `make test`'s catalogue check (`scripts/po.py check`) on a copy of the sources: it passes
/// as the repository is, and fails once a string is added to the code without a
/// translation, or a translation's placeholders disagree with the English.
@Suite("The message catalogues' check")
struct CatalogueCheckTests {
  static let root = PeerProcess.packageRoot

  /// The sources the check reads, and the catalogues, copied into a fresh directory.
  static func copy() throws -> URL {
    let copy = HeadlessProcess.freshDirectory()
    for folder in ["Sources", "po", "scripts"] {
      try FileManager.default.copyItem(
        at: root.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
    }
    return copy
  }

  static func check(_ copy: URL) throws -> ProgramRun {
    try ProgramRun(
      "/usr/bin/python3", [copy.appendingPathComponent("scripts/po.py").path, "check", copy.path])
  }

  @Test func passesAsItIsAndFailsForAStringWithoutTranslation() throws {
    let copy = try Self.copy()
    defer { try? FileManager.default.removeItem(at: copy) }
    let clean = try Self.check(copy)
    #expect(clean.status == 0, "\(clean.errors)")
    // A new string on the screen, in no catalogue yet.
    try """
    func newWords() -> String { tr("A string nobody has translated yet") }

    """.write(
      to: copy.appendingPathComponent("Sources/QnATerminal/NewWords.swift"), atomically: true,
      encoding: .utf8)
    let added = try Self.check(copy)
    #expect(added.status != 0)
    for language in ["de", "es", "pl"] {
      #expect(added.errors.contains("\(language).po: strings without a translation"))
    }
  }

  @Test func failsForATranslationWhosePlaceholdersDisagree() throws {
    let copy = try Self.copy()
    defer { try? FileManager.default.removeItem(at: copy) }
    let catalogue = copy.appendingPathComponent("po/de.po")
    let text = try String(contentsOf: catalogue, encoding: .utf8)
    // The German for "%d questions in the room" losing its number (the plural form, which
    // stands for many numbers: msgfmt lets only a form for one number leave it out).
    let broken = text.replacingOccurrences(
      of: "\"%d Fragen im Raum\"", with: "\"Fragen im Raum\"")
    #expect(broken != text)
    try broken.write(to: catalogue, atomically: true, encoding: .utf8)
    #expect(try Self.check(copy).status != 0)
  }
}
