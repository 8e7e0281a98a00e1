/// Words for a person, kept as their English template and arguments, so that a front end
/// can show them in the reader's language (the template is the message id of the
/// catalogues; `make po` extracts it by the keyword `Message`).
public struct Message: Sendable, Hashable {
  public var template: String
  public var arguments: [String]

  public init(_ template: String, _ arguments: String...) {
    self.template = template
    self.arguments = arguments
  }

  /// In English.
  public var text: String { MessageFormat.apply(template, arguments) }
}

/// printf's placeholders for text: `%s` and `%d` take the next argument, `%1$s` and `%2$d`
/// the numbered one (a translation may reorder them), `%%` is a percent sign. Anything else
/// stays as written; a placeholder without its argument becomes nothing.
public enum MessageFormat {
  public static func apply(_ template: String, _ arguments: [String]) -> String {
    var result = ""
    var next = 0
    var rest = Substring(template)
    while let percent = rest.firstIndex(of: "%") {
      result += rest[..<percent]
      rest = rest[rest.index(after: percent)...]
      if rest.first == "%" {
        result += "%"
        rest = rest.dropFirst()
        continue
      }
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      var index: Int?
      var spec = rest
      if !digits.isEmpty, rest.dropFirst(digits.count).first == "$", let number = Int(digits) {
        index = number - 1
        spec = rest.dropFirst(digits.count + 1)
      }
      guard let kind = spec.first, kind == "s" || kind == "d" else {
        result += "%"
        continue
      }
      // Only a placeholder takes an argument: a lone "%" leaves the next one be.
      if index == nil {
        index = next
        next += 1
      }
      if let index, arguments.indices.contains(index) { result += arguments[index] }
      rest = spec.dropFirst()
    }
    return result + rest
  }
}
