import Foundation

/// The session report's charts as SVG, drawn from numbers alone: no script, no inline
/// style (colours come from `Assets/report.css` by class, so the page's CSP holds, dark mode
/// and print work). Every chart has its numbers beside it as text too.
package enum ReportCharts {
  /// One series of a chart over time: its name, its class (its colour) and a value a bin.
  package struct Series: Sendable {
    package var name: String
    package var className: String
    package var values: [Int]

    package init(name: String, className: String, values: [Int]) {
      self.name = name
      self.className = className
      self.values = values
    }
  }

  static let width = 720.0
  static let height = 240.0
  /// Room for the axes' labels: left, bottom; and above the highest value.
  static let left = 44.0
  static let bottom = 28.0
  static let top = 10.0

  /// Lines over time: `labels` under some of the bins (as many as fit), the y axis from 0 to
  /// a round number at least the highest value. `title` names the chart for screen readers.
  package static func lines(_ series: [Series], labels: [String], title: String) -> String {
    let bins = max(1, series.map(\.values.count).max() ?? 1)
    let highest = roundUp(series.flatMap(\.values).max() ?? 0)
    let plotWidth = width - left - 8
    let plotHeight = height - bottom - top
    func x(_ bin: Int) -> Double {
      left + (bins == 1 ? plotWidth / 2 : plotWidth * Double(bin) / Double(bins - 1))
    }
    func y(_ value: Int) -> Double { top + plotHeight * (1 - Double(value) / Double(highest)) }
    var svg = open(title: title)
    // Four steps up the y axis, each with its value.
    for step in 0...4 {
      let value = highest * step / 4
      svg +=
        "<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(number(y(value)))\" y2=\"\(number(y(value)))\"/>"
        + "<text class=\"axis\" x=\"\(left - 6)\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\">\(value)</text>"
    }
    // At most eight labels under the axis, evenly spread.
    let every = max(1, Int((Double(labels.count) / 8).rounded(.up)))
    for (bin, label) in labels.enumerated() where bin % every == 0 {
      svg +=
        "<text class=\"axis\" x=\"\(number(x(bin)))\" y=\"\(number(height - 8))\" text-anchor=\"middle\">\(HTML.escape(label))</text>"
    }
    for line in series where !line.values.isEmpty {
      let points = line.values.enumerated().map {
        "\(number(x($0.offset))),\(number(y($0.element)))"
      }
      svg +=
        "<polyline class=\"line \(line.className)\" points=\"\(points.joined(separator: " "))\"/>"
    }
    return svg + "</svg>"
  }

  /// A bar of `parts` side by side, each as wide as its share of the whole.
  package static func stacked(_ parts: [(className: String, value: Int)], title: String)
    -> String
  {
    let total = parts.reduce(0) { $0 + $1.value }
    var svg =
      "<svg class=\"stacked\" viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(HTML.escape(title))\">"
    var at = 0.0
    for part in parts where part.value > 0 && total > 0 {
      let width = 100 * Double(part.value) / Double(total)
      svg +=
        "<rect class=\"\(part.className)\" x=\"\(number(at))\" width=\"\(number(width))\" height=\"8\"/>"
      at += width
    }
    return svg + "</svg>"
  }

  /// A bar of `fraction` (0 to 1) of its cell: the row's label and figure are the table's.
  package static func bar(_ fraction: Double, className: String = "fill") -> String {
    let width = 100 * max(0, min(1, fraction.isFinite ? fraction : 0))
    return
      "<svg class=\"bar\" viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
      + "<rect class=\"track\" width=\"100\" height=\"8\"/>"
      + "<rect class=\"\(className)\" width=\"\(number(width))\" height=\"8\"/></svg>"
  }

  /// A legend's key for a line: a short stretch of it, in its class's colour and dashes.
  package static func lineKey(_ className: String) -> String {
    "<svg class=\"key\" viewBox=\"0 0 32 8\" aria-hidden=\"true\">"
      + "<line class=\"line \(className)\" x1=\"0\" y1=\"4\" x2=\"32\" y2=\"4\"/></svg>"
  }

  /// A key for a part of a stacked bar: a square in its class's colour (drawn as SVG, so
  /// that it prints without the browser's background graphics).
  package static func swatch(_ className: String) -> String {
    "<svg class=\"key swatch\" viewBox=\"0 0 8 8\" aria-hidden=\"true\">"
      + "<rect class=\"\(className)\" width=\"8\" height=\"8\" rx=\"1.5\"/></svg>"
  }

  private static func open(title: String) -> String {
    "<svg class=\"chart\" viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\" aria-label=\"\(HTML.escape(title))\">"
  }

  /// The smallest of 1, 2, 5 × 10ⁿ (or 4 for the smallest) at least `value`: an axis's top,
  /// divisible in four steps.
  static func roundUp(_ value: Int) -> Int {
    guard value > 4 else { return 4 }
    var scale = 1
    while true {
      for step in [1, 2, 4, 5, 8] where step * scale >= value { return step * scale }
      scale *= 10
    }
  }

  /// A coordinate with at most one decimal.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(abs(tenths % 10))"
  }
}
