import Foundation

/// Deterministic UUIDs: `uuid(5)` is 00000000-0000-4000-8000-000000000005, and `group` fills
/// the first block (0x5E for server ids, 0xC0 for connections, by the tests' convention).
public func uuid(_ number: Int, group: Int = 0) -> UUID {
  UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", group, number))!
}

public let firstConnection = uuid(1, group: 0xC0)
public let secondConnection = uuid(2, group: 0xC0)
