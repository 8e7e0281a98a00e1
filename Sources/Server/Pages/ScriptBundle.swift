/// A page's script served with every module it imports, as one file: what a browser would
/// fetch in one request per module comes in one, and each request costs the server about
/// half a millisecond of CPU, however small the file (`ServerBenchmarks pages`). The modules
/// stay the source: editors, tsc and node's tests read them, and the server serves them too.
///
/// Each imported module runs once, in a function of its own, in the order a browser
/// evaluates them (what a module imports before the module), so that their top-level names
/// stay apart; its exports are what the function returns, and an import is a destructuring
/// of them. That is all the modules here use: one-line named imports from `./NAME.js`, and
/// `export` before a `const`, `let`, `function`, `async function` or `class` declaration.
/// Anything else is refused (`Failure`), and the scripts are then served as they are.
package enum ScriptBundle {
  package enum Failure: Error, Equatable {
    /// A line this bundler does not read, in a module.
    case unreadable(module: String, line: String)
    case missing(module: String, importedBy: String)
    case cycle(module: String)
  }

  /// The served scripts: each script no other one imports (a page's, a worker's) bundled
  /// with its imports, every other one as it is; all of them as they are when one cannot be
  /// bundled.
  package static func served(_ files: [String: String]) -> [String: String] {
    var scripts = files.filter { $0.key.hasSuffix(".js") }
    let imported = Set(
      scripts.values.flatMap { text in lines(text).compactMap(importLine) }.map(\.module))
    do throws(Failure) {
      for name in scripts.keys.sorted() where !imported.contains(name) {
        scripts[name] = try bundle(name, modules: files)
      }
    } catch {
      return files
    }
    return files.merging(scripts) { _, bundled in bundled }
  }

  /// `entry` with the modules it imports, from `modules` (each file's text by name).
  package static func bundle(_ entry: String, modules: [String: String]) throws(Failure)
    -> String
  {
    var order: [String] = []
    var visiting: Set<String> = []
    func visit(_ name: String, from importer: String) throws(Failure) {
      if order.contains(name) { return }
      guard !visiting.contains(name) else { throw .cycle(module: name) }
      guard let text = modules[name] else { throw .missing(module: name, importedBy: importer) }
      visiting.insert(name)
      for line in lines(text) {
        if let found = importLine(line) { try visit(found.module, from: name) }
      }
      visiting.remove(name)
      order.append(name)
    }
    try visit(entry, from: entry)
    var out = [
      "// \(entry) and the modules it imports, served as one file (each module in a function",
      "// of its own); the modules themselves are beside it.",
    ]
    for name in order.dropLast() {
      let (body, exports) = try rewrite(name, modules[name] ?? "")
      out.append("const \(binding(name)) = (() => {")
      out += body
      out.append("return { \(exports.joined(separator: ", ")) };")
      out.append("})();")
    }
    out += try rewrite(entry, modules[entry] ?? "").body
    return out.joined(separator: "\n") + "\n"
  }

  /// A module's lines with its imports as destructurings and its exports as declarations,
  /// and the names it exports.
  static func rewrite(_ name: String, _ text: String) throws(Failure) -> (
    body: [String], exports: [String]
  ) {
    var body: [String] = []
    var exports: [String] = []
    for line in lines(text) {
      if line.hasPrefix("import") {
        guard let found = importLine(line) else { throw .unreadable(module: name, line: line) }
        let names = found.names.map {
          $0.local == $0.exported ? $0.local : "\($0.exported): \($0.local)"
        }
        body.append("const { \(names.joined(separator: ", ")) } = \(binding(found.module));")
      } else if line.hasPrefix("export") {
        guard let declared = exportLine(line) else { throw .unreadable(module: name, line: line) }
        exports.append(declared)
        body.append(String(line.dropFirst("export ".count)))
      } else {
        body.append(line)
      }
    }
    return (body, exports)
  }

  /// The constant a bundled module's exports are kept in.
  static func binding(_ module: String) -> String {
    "qna$" + String(module.dropLast(".js".count).map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// `import { a, b as c } from './NAME.js';`: the module and each name (as exported, as
  /// bound here); `nil` for any other line.
  static func importLine(_ line: String) -> (
    module: String, names: [(exported: String, local: String)]
  )? {
    guard line.hasPrefix("import { "), line.hasSuffix(".js';"),
      let close = line.range(of: " } from './")
    else { return nil }
    let module = String(line[close.upperBound...].dropLast(2))
    guard isFileName(module) else { return nil }
    let list = line[line.index(line.startIndex, offsetBy: "import { ".count)..<close.lowerBound]
    var names: [(exported: String, local: String)] = []
    for item in list.split(separator: ",") {
      let words = item.split(separator: " ")
      switch words.count {
      case 1 where isName(words[0]): names.append((String(words[0]), String(words[0])))
      case 3 where words[1] == "as" && isName(words[0]) && isName(words[2]):
        names.append((String(words[0]), String(words[2])))
      default: return nil
      }
    }
    return names.isEmpty ? nil : (module, names)
  }

  /// `export const NAME …` (or `let`, `function`, `async function`, `class`): the name.
  static func exportLine(_ line: String) -> String? {
    let words = line.split(separator: " ", maxSplits: 4)
    let declaration = words.count > 2 && words[1] == "async" ? 2 : 1
    guard words.count > declaration + 1,
      ["const", "let", "function", "class"].contains(words[declaration]),
      declaration == 1 || words[declaration] == "function"
    else { return nil }
    let name = words[declaration + 1].prefix {
      $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$"
    }
    return isName(name) ? String(name) : nil
  }

  static func isName(_ word: some StringProtocol) -> Bool {
    guard let first = word.first, first.isLetter || first == "_" || first == "$" else {
      return false
    }
    return word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
  }

  static func isFileName(_ name: String) -> Bool {
    name.hasSuffix(".js") && !name.contains("/")
      && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }
  }
}
