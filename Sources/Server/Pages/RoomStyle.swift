/// The head of the attendee page and the projector view, with their style sheet,
/// `Assets/room.css` (`/assets/room.css`): a 360-pixel phone first, light or dark as the
/// system is, text at least 4.5:1 against its background (WCAG AA;
/// `Tests/Browser/page_check.py` measures it).
package enum RoomStyle {
  /// The start of the attendee page and the projector view, to the end of their `head`: the
  /// phone's viewport, light and dark, and this style sheet.
  static func head(title: String, language: String) -> String {
    """
    <!doctype html>
    <html lang="\(HTML.escape(language))"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>\(HTML.escape(title))</title>
    <link rel="stylesheet" href="/assets/room.css"></head>
    """
  }
}
