import CGettext
import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The screen's words in the reader's language: GNU gettext's catalogues (`po/*.po`,
/// compiled to `qna.mo`), chosen by `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` as glibc
/// chooses them; English (the message ids) when no catalogue matches.
public enum Catalogue {
  static let domain = CatalogueDirectory.domain

  /// The messages' locale from the environment, and the catalogues bound: before the first
  /// word a command prints (only `LC_MESSAGES`: numbers and JSON stay as they are).
  public static func start() {
    setlocale(LC_MESSAGES, "")
    bind()
  }

  /// Binds the domain to the catalogues `CatalogueDirectory` finds (without any, qna speaks
  /// English). Call after `setlocale`.
  public static func bind(environment: [String: String] = ProcessInfo.processInfo.environment) {
    guard let directory = CatalogueDirectory.find(environment: environment, built: builtCatalogues)
    else { return }
    _ = bindtextdomain(domain, directory)
    _ = bind_textdomain_codeset(domain, "UTF-8")
  }

  /// gettext returns its own argument when it has no translation: the Swift string's
  /// temporary C copy, read here while it still lives.
  static func text(_ message: String) -> String {
    message.withCString { id in
      guard let found = dgettext(domain, id), found != UnsafeMutablePointer(mutating: id) else {
        return message
      }
      return String(cString: found)
    }
  }

  static func plural(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
      plural.withCString { many in
        guard let found = dngettext(domain, one, many, UInt(max(0, count))) else {
          return count == 1 ? singular : plural
        }
        if found == UnsafeMutablePointer(mutating: one) { return singular }
        if found == UnsafeMutablePointer(mutating: many) { return plural }
        return String(cString: found)
      }
    }
  }

  /// `template` with its `%s` and `%d` (or `%1$s`, `%2$d`: a translation may reorder them)
  /// replaced by `arguments`, in order; `%%` is a percent sign.
  public static func format(_ template: String, _ arguments: any CustomStringConvertible...)
    -> String
  {
    MessageFormat.apply(template, arguments.map(\.description))
  }

  /// A message of the engine's in the reader's language (a text from the server as it is).
  static func localized(_ notice: Notice) -> String {
    guard let message = notice.message else { return notice.text }
    return MessageFormat.apply(text(message.template), message.arguments)
  }
}

/// A message id to translate (extracted by `make po`: the keyword `tr`).
public func tr(_ message: String) -> String { Catalogue.text(message) }

/// A message id with a plural form, chosen by `count` with the language's own rules
/// (extracted by `make po`: the keyword `trn`).
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
  Catalogue.plural(singular, plural, count)
}
