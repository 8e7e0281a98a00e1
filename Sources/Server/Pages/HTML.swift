import CommandLineValues

/// Text made safe for HTML element content and quoted attribute values; controls, bidi
/// controls and invisible characters come out as the sanitizer's visible escapes
/// (`PrintableText`), as on a terminal.
package enum HTML {
  /// A join address as the pages show it: escaped, a line break offered after each slash
  /// with text after it, and `code` (a part alone between slashes) one piece with the slash
  /// after it (`unbroken`, which the pages' styles keep from wrapping). A narrow column breaks
  /// the address between its parts, or inside a host too long for a line, never mid-code.
  package static func joinAddress(_ address: String, code: String?) -> String {
    let parts = address.split(separator: "/", omittingEmptySubsequences: false)
    var out = ""
    var afterCode = false
    for (index, part) in parts.enumerated() {
      // The slash after the code went out in its piece.
      if index > 0, !afterCode { out += "/" }
      if index > 0, !part.isEmpty { out += "<wbr>" }
      afterCode = code.map { part == $0 } ?? false
      guard afterCode else {
        out += escape(String(part))
        continue
      }
      let slash = index + 1 < parts.count ? "/" : ""
      out += "<span class=\"unbroken\">\(escape(String(part)))\(slash)</span>"
    }
    return out
  }

  package static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      // Line breaks and tabs are the page's to lay out; nothing else of the sort acts on it.
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case _ where PrintableText.isControl(scalar): out += PrintableText.escape(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
