/// Reed–Solomon error correction over GF(2⁸) with QR's polynomial x⁸+x⁴+x³+x²+1 (ISO/IEC
/// 18004 §7.5.2): the generator for a number of check bytes, and the check bytes of a block.
package enum ReedSolomon {
  /// The product of two field elements (shift-and-add, reduced by 0x11D).
  static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
    var product = 0
    for bit in stride(from: 7, through: 0, by: -1) {
      product = (product << 1) ^ ((product >> 7) * 0x11D)
      product ^= (Int(y) >> bit & 1) * Int(x)
    }
    return UInt8(product)
  }

  /// The generator polynomial (x−α⁰)(x−α¹)…(x−α^(degree−1)), highest coefficient (1) left out.
  package static func generator(degree: Int) -> [UInt8] {
    var coefficients = [UInt8](repeating: 0, count: degree)
    coefficients[degree - 1] = 1
    var root: UInt8 = 1
    for _ in 0..<degree {
      for index in 0..<degree {
        coefficients[index] = multiply(coefficients[index], root)
        if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
      }
      root = multiply(root, 0x02)
    }
    return coefficients
  }

  /// The check bytes of `data`: the remainder of data·x^degree divided by the generator.
  package static func remainder(of data: some Sequence<UInt8>, generator: [UInt8]) -> [UInt8] {
    var remainder = [UInt8](repeating: 0, count: generator.count)
    for byte in data {
      let factor = byte ^ remainder.removeFirst()
      remainder.append(0)
      for index in remainder.indices {
        remainder[index] ^= multiply(generator[index], factor)
      }
    }
    return remainder
  }
}
