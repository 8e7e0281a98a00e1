#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Where the message catalogues (`LANG/LC_MESSAGES/qna.mo`, GNU gettext's layout) are, for
/// the terminal and the web pages alike, first found: `$QNA_LOCALEDIR`; `share/locale`
/// beside the installed program (`/usr/local/bin/qna` → `/usr/local/share/locale`); the ones
/// this checkout's build compiled (`built`); glibc's own, where a package puts them
/// (`/usr/share/locale`). `nil`: none of them has any.
public enum CatalogueDirectory {
  public static let domain = "qna"

  public static func find(
    environment: [String: String] = ProcessInfo.processInfo.environment, built: String?
  ) -> String? {
    [environment["QNA_LOCALEDIR"], installed(), built, "/usr/share/locale"].compactMap { $0 }
      .first(where: hasCatalogues)
  }

  /// The languages it has catalogues for (`de`, `pt_BR`, …).
  public static func languages(in directory: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.filter {
      FileManager.default.fileExists(atPath: file(language: $0, in: directory))
    }.sorted()
  }

  public static func file(language: String, in directory: String) -> String {
    "\(directory)/\(language)/LC_MESSAGES/\(domain).mo"
  }

  private static func installed() -> String? {
    guard
      let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("../share/locale").standardizedFileURL.path
  }

  private static func hasCatalogues(_ directory: String) -> Bool {
    !languages(in: directory).isEmpty
  }
}
