/// Text made safe for HTML element content and quoted attribute values.
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
      // Controls other than tab and line breaks have no business on the page.
      case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}":
        out += "&#xFFFD;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
