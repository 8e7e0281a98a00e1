/// A QR code (ISO/IEC 18004) holding bytes in byte mode at error correction level M, in the
/// smallest version that fits them: a join address for a phone's camera.
public struct QRCode: Sendable, Equatable {
  /// What cannot be encoded.
  public enum Failure: Error, Equatable {
    /// More bytes than version 40 holds at level M (2,331).
    case tooLong(bytes: Int, limit: Int)
  }

  /// Modules per side, without the quiet zone.
  public let size: Int
  /// The version, 1–40.
  public let version: Int
  /// The mask pattern chosen, 0–7.
  public let mask: Int
  /// Dark modules, row by row.
  private let dark: [Bool]

  /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone)
  /// every module is light.
  public subscript(x: Int, y: Int) -> Bool {
    guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
    return dark[y * size + x]
  }

  /// The most bytes a code holds.
  public static var capacity: Int { capacity(of: QRVersion(number: 40)) }

  public init(text: String) throws(Failure) {
    try self.init(bytes: Array(text.utf8))
  }

  public init(bytes: [UInt8]) throws(Failure) {
    guard let version = QRVersion.all.first(where: { Self.capacity(of: $0) >= bytes.count })
    else { throw .tooLong(bytes: bytes.count, limit: Self.capacity) }
    let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
    var symbol = QRSymbol(version: version)
    symbol.drawFunctionPatterns()
    symbol.drawCodewords(codewords)
    var best: (mask: Int, penalty: Int, symbol: QRSymbol)?
    for mask in 0..<8 {
      var candidate = symbol
      candidate.apply(mask: mask)
      candidate.drawFormat(mask: mask)
      let penalty = candidate.penalty()
      if best.map({ penalty < $0.penalty }) ?? true { best = (mask, penalty, candidate) }
    }
    guard let best else { preconditionFailure("eight masks were tried") }
    self.size = version.size
    self.version = version.number
    self.mask = best.mask
    self.dark = best.symbol.dark
  }

  /// Bytes that fit in `version` beside the mode and length fields.
  static func capacity(of version: QRVersion) -> Int {
    (version.dataCodewords * 8 - 4 - version.countBits) / 8
  }

  /// The segment (mode 0100, length, bytes), its terminator and the padding bytes 0xEC 0x11.
  static func dataCodewords(_ bytes: [UInt8], version: QRVersion) -> [UInt8] {
    var bits = BitBuffer()
    bits.append(0b0100, count: 4)
    bits.append(bytes.count, count: version.countBits)
    for byte in bytes { bits.append(Int(byte), count: 8) }
    let capacity = version.dataCodewords * 8
    bits.append(0, count: min(4, capacity - bits.count))
    bits.append(0, count: (8 - bits.count % 8) % 8)
    var codewords = bits.bytes
    var pad: UInt8 = 0xEC
    while codewords.count < version.dataCodewords {
      codewords.append(pad)
      pad = pad == 0xEC ? 0x11 : 0xEC
    }
    return codewords
  }

  /// The data split into the version's blocks (the short ones first), each with its check
  /// bytes, interleaved column by column (§7.6).
  static func interleaved(_ data: [UInt8], version: QRVersion) -> [UInt8] {
    let blockCount = version.blocks
    let shortBlocks = blockCount - version.codewords % blockCount
    let shortLength = version.codewords / blockCount - version.checkBytes
    let generator = ReedSolomon.generator(degree: version.checkBytes)
    var dataBlocks: [ArraySlice<UInt8>] = []
    var checkBlocks: [[UInt8]] = []
    var start = 0
    for index in 0..<blockCount {
      let length = shortLength + (index < shortBlocks ? 0 : 1)
      let block = data[start..<(start + length)]
      start += length
      dataBlocks.append(block)
      checkBlocks.append(ReedSolomon.remainder(of: block, generator: generator))
    }
    var out: [UInt8] = []
    out.reserveCapacity(version.codewords)
    for column in 0...shortLength {
      for block in dataBlocks where column < block.count {
        out.append(block[block.startIndex + column])
      }
    }
    for column in 0..<version.checkBytes {
      for block in checkBlocks { out.append(block[column]) }
    }
    return out
  }
}

/// Bits appended most significant first, read back as bytes.
struct BitBuffer {
  private(set) var bits: [Bool] = []
  var count: Int { bits.count }

  mutating func append(_ value: Int, count: Int) {
    for shift in stride(from: count - 1, through: 0, by: -1) {
      bits.append(value >> shift & 1 == 1)
    }
  }

  var bytes: [UInt8] {
    stride(from: 0, to: bits.count, by: 8).map { start in
      bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
    }
  }
}
