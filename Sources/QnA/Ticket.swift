/// Extension `tickets`: a personal ticket to a session that admits attendees by ticket, one per
/// person, so that a new identity costs one of a limited number the organiser handed out
/// (`qna-server session tickets`). 16 characters of the join code's alphabet (80 random bits),
/// printed in groups of four, accepted in any case with or without the dashes. Links carry it
/// in their fragment (`…/s/CODE/#ticket=…`), which browsers never send to a server or in a
/// `Referer`.
public enum Ticket {
  public static let length = 16

  /// A ticket as typed, made canonical (upper case, no dashes or spaces); `nil` if it cannot
  /// be one.
  public static func canonical(_ typed: String) -> String? {
    let ticket = typed.uppercased().filter { $0 != "-" && $0 != " " }
    guard ticket.count == length, ticket.allSatisfy(JoinCode.alphabet.contains) else {
      return nil
    }
    return ticket
  }

  /// A canonical ticket as printed: `ABCD-EFGH-JKLM-NPQR`.
  public static func grouped(_ ticket: String) -> String {
    stride(from: 0, to: ticket.count, by: 4).map { start in
      String(ticket.dropFirst(start).prefix(4))
    }.joined(separator: "-")
  }

  /// What the server keeps of a canonical ticket: its SHA-256, in hex (a copied database
  /// admits nobody).
  public static func digest(_ ticket: String) -> String {
    let digest = SHA256Block.digest(Array(ticket.utf8)) ?? []
    return digest.map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }

  /// The ticket in a link's fragment (`#ticket=…`, among other `&`-separated fields), if it
  /// holds a valid one.
  public static func inLink(_ link: String) -> String? {
    guard let hash = link.firstIndex(of: "#") else { return nil }
    for field in link[link.index(after: hash)...].split(separator: "&") {
      let parts = field.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0] == "ticket" { return canonical(String(parts[1])) }
    }
    return nil
  }

  /// A session's link with the ticket in its fragment.
  public static func link(_ sessionLink: String, ticket: String) -> String {
    let base = sessionLink.prefix { $0 != "#" }
    return "\(base)#ticket=\(grouped(ticket))"
  }
}
