import QnA

/// The view's styles, in colour or in monochrome (bold, reverse, underline only): the same
/// meaning either way.
package struct Palette {
  enum Tone {
    case good, warning, bad, quiet
  }

  let colors: Bool

  package init(colors: Bool) { self.colors = colors }

  func style(_ tone: Tone) -> CellStyle {
    switch (tone, colors) {
    case (.good, true): CellStyle(color: .green)
    case (.warning, true): CellStyle(color: .yellow, bold: true)
    case (.bad, true): CellStyle(color: .red, bold: true)
    case (.good, false): CellStyle(bold: true)
    case (.warning, false): CellStyle(underline: true)
    case (.bad, false): CellStyle(reverse: true)
    case (.quiet, _): CellStyle(dim: true)
    }
  }

  func label(_ status: QuestionStatus) -> CellStyle {
    switch (status, colors) {
    case (.unanswered, true): CellStyle(color: .red)
    case (.answered, true): CellStyle(color: .green)
    case (.sending, true), (.queued, true), (.waiting, true): CellStyle(color: .yellow)
    case (.failed, true): CellStyle(color: .red, bold: true)
    case (.unanswered, false): CellStyle(bold: true)
    case (.answered, false): CellStyle()
    case (.sending, false), (.queued, false), (.waiting, false): CellStyle(underline: true)
    case (.failed, false): CellStyle(reverse: true)
    }
  }

  /// A question just answered.
  package var highlight: CellStyle {
    colors
      ? CellStyle(color: .green, bold: true, reverse: true) : CellStyle(bold: true, reverse: true)
  }

  /// The room view's selected question.
  var selected: CellStyle { CellStyle(reverse: true) }
  /// The votes of a question this attendee voted for.
  var voted: CellStyle {
    colors ? CellStyle(color: .green, bold: true) : CellStyle(bold: true, reverse: true)
  }
  /// A question of the room moving up, for a moment.
  package var rising: CellStyle {
    colors
      ? CellStyle(color: .yellow, bold: true, reverse: true)
      : CellStyle(bold: true, underline: true)
  }

  var title: CellStyle { colors ? CellStyle(color: .cyan, bold: true) : CellStyle(bold: true) }
  var faint: CellStyle { CellStyle(dim: true) }
  var prompt: CellStyle { colors ? CellStyle(color: .cyan, bold: true) : CellStyle(bold: true) }
  /// The presenter's announcement, across the top of the room.
  var announcement: CellStyle {
    colors
      ? CellStyle(color: .yellow, bold: true, reverse: true)
      : CellStyle(bold: true, underline: true)
  }
  /// The footer's bar, and an error or a question inside it.
  var bar: CellStyle { CellStyle(reverse: true) }
  var barAlert: CellStyle {
    colors
      ? CellStyle(color: .red, bold: true, reverse: true) : CellStyle(bold: true, reverse: true)
  }
}
