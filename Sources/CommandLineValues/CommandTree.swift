/// The programs hand `qna join`, `qna present`, `qna-server export`, `qna-server session` and
/// `qna-server logout-all` to their own commands before ArgumentParser reads a word, so that
/// an attendee's options never mix with a subcommand's. The man pages
/// (scripts/manual_pages.py reads `--experimental-dump-help`) and the shell completions still
/// need the whole tree: only for those requests do the commands declare their subcommands to
/// ArgumentParser, under their short names.
public enum CommandTree {
  /// True when this run only describes the program rather than running it.
  public static var isDescribing: Bool {
    guard let first = CommandLine.arguments.dropFirst().first else { return false }
    return first == "--experimental-dump-help"
      || first.hasPrefix("--generate-completion-script") || first == "---completion"
  }

  /// A subcommand's name: "qna join" when it runs on its own, "join" inside the tree.
  public static func name(_ fullName: String) -> String {
    guard isDescribing, let last = fullName.split(separator: " ").last else { return fullName }
    return String(last)
  }

}
