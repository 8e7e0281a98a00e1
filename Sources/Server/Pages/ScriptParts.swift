/// Functions every page script defines the same way, written once and put in each.
enum ScriptParts {
  /// `printable(text)`: what people typed as the server's pages show it: controls, bidi
  /// controls and invisible characters as visible escapes (`PresenterScript.printableRanges`),
  /// never acting on the page.
  static let printable = #"""
    const printable = (text) => String(text).replace(/[\#(PresenterScript.printableClass)]/g, (c) => {
      const code = c.codePointAt(0), hex = code.toString(16).toUpperCase();
      if (code === 0x1B) return '\\e';
      return code <= 0xFF ? `\\x${hex.padStart(2, '0')}` : `\\u{${hex}}`;
    });
    """#

  /// `uuid()`: a random UUID, upper case as the protocol's ids are (crypto.randomUUID needs a
  /// secure context, which a page on plain http:// in a hall's network does not have).
  static let uuid = #"""
    const uuid = () => {
      const b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
      const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
      return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)]
        .join('-').toUpperCase();
    };
    """#

  /// `applyCounts(counts, questions, numbers)`: a compact delta's `counts` (extension
  /// `counts`), pairs of a question's number and its whole count, onto the questions known.
  static let applyCounts = #"""
    const applyCounts = (counts, questions, numbers) => {
      for (let i = 0; counts && i + 1 < counts.length; i += 2) {
        const q = questions.get(numbers.get(counts[i]));
        if (q) q.votes = counts[i + 1];
      }
    };
    """#
}
