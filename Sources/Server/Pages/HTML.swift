import CommandLineValues

/// Text made safe for HTML element content and quoted attribute values; controls, bidi
/// controls and invisible characters come out as the sanitizer's visible escapes
/// (`PrintableText`), as on a terminal.
package enum HTML {
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
