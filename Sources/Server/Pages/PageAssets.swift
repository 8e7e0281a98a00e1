/// The pages' scripts and style sheets: the files of `Assets/`, embedded at build time by the
/// EmbedAssets plugin (`EmbeddedAssets`), served as `/assets/NAME`. The page scripts are ES
/// modules that import `common.js` and others; each page's is served bundled with them.
package enum PageAssets {
  /// Every asset by name, with its text and its media type.
  package static let all: [(name: String, text: String, type: String)] = EmbeddedAssets.files
    .sorted { $0.key < $1.key }.map { name, text in (name, text, mediaType(name)) }

  /// Every asset as the server serves it: each page's script (and the worker's) bundled with
  /// the modules it imports (`ScriptBundle`), then every script and style sheet shrunk
  /// (`ScriptShrinking`, `StyleShrinking`); one that cannot be is served as it is.
  package static let served: [(name: String, text: String, type: String)] = ScriptBundle.served(
    EmbeddedAssets.files
  ).map { name, text in (name, shrunk(name, text)) }.sorted { $0.0 < $1.0 }
    .map { name, text in (name, text, mediaType(name)) }

  /// A script or style sheet without what only its readers need.
  package static func shrunk(_ name: String, _ text: String) -> String {
    do throws(ScriptShrinking.Failure) {
      if name.hasSuffix(".js") { return try ScriptShrinking.script(text) }
      if name.hasSuffix(".css") { return try StyleShrinking.styleSheet(text) }
    } catch {
      return text
    }
    return text
  }

  /// An asset's text, or `nil` when no asset has that name.
  package static func text(_ name: String) -> String? { EmbeddedAssets.files[name] }

  static func mediaType(_ name: String) -> String {
    name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
  }
}
