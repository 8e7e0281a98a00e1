/// Writes frames (RFC 6455 §5.2). Client frames are always masked; the key comes from the caller.
public enum FrameEncoder {
  /// The header length for a payload of `payloadCount` bytes: 7-, 16- or 64-bit length, plus
  /// the key when masked.
  @inlinable
  public static func headerSize(payloadCount: Int, masked: Bool) -> Int {
    let lengthBytes = payloadCount < 126 ? 0 : (payloadCount <= 0xFFFF ? 2 : 8)
    return 2 + lengthBytes + (masked ? 4 : 0)
  }

  /// Writes one frame into `destination`, which must hold `headerSize + payload.count` bytes.
  /// Returns the number of bytes written.
  @inlinable
  public static func encode(
    opcode: Opcode, fin: Bool = true, compressed: Bool = false, payload: UnsafeRawBufferPointer,
    maskingKey: MaskingKey?, into destination: UnsafeMutableRawBufferPointer
  ) -> Int {
    let count = payload.count
    let headerLength = headerSize(payloadCount: count, masked: maskingKey != nil)
    precondition(destination.count >= headerLength + count, "frame buffer too small")
    let base = destination.baseAddress!
    base.storeBytes(
      of: (fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode.rawValue, as: UInt8.self)
    let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
    var offset = 2
    if count < 126 {
      base.storeBytes(of: maskBit | UInt8(count), toByteOffset: 1, as: UInt8.self)
    } else if count <= 0xFFFF {
      base.storeBytes(of: maskBit | 126, toByteOffset: 1, as: UInt8.self)
      base.storeBytes(of: UInt16(count).bigEndian, toByteOffset: 2, as: UInt16.self)
      offset = 4
    } else {
      base.storeBytes(of: maskBit | 127, toByteOffset: 1, as: UInt8.self)
      base.storeBytes(of: UInt64(count).bigEndian, toByteOffset: 2, as: UInt64.self)
      offset = 10
    }
    if let maskingKey {
      base.storeBytes(of: maskingKey.wireValue.bigEndian, toByteOffset: offset, as: UInt32.self)
      offset += 4
      if let source = payload.baseAddress {
        Masking.apply(maskingKey, phase: 0, from: source, to: base + offset, count: count)
      }
    } else if let source = payload.baseAddress {
      (base + offset).copyMemory(from: source, byteCount: count)
    }
    return offset + count
  }

  /// One frame as a new array.
  @inlinable
  public static func encode(
    opcode: Opcode, fin: Bool = true, compressed: Bool = false, payload: UnsafeRawBufferPointer,
    maskingKey: MaskingKey?
  ) -> [UInt8] {
    let total = headerSize(payloadCount: payload.count, masked: maskingKey != nil) + payload.count
    return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      initialized = encode(
        opcode: opcode, fin: fin, compressed: compressed, payload: payload,
        maskingKey: maskingKey, into: UnsafeMutableRawBufferPointer(buffer))
    }
  }

  public static func encode(
    opcode: Opcode, fin: Bool = true, payload: [UInt8], maskingKey: MaskingKey?
  ) -> [UInt8] {
    payload.withUnsafeBytes {
      encode(opcode: opcode, fin: fin, payload: $0, maskingKey: maskingKey)
    }
  }
}
