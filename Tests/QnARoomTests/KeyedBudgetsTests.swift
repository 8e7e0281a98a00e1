import QnARoom
import Testing

/// A full table of budgets makes room in one pass for the next eighth of new keys: the
/// buckets full again first, then the quietest.
@Suite("Budgets per key")
struct KeyedBudgetsTests {
  @Test func aFullTableForgetsTheFullBucketsThenTheQuietest() {
    let budgets = KeyedBudgets<Int>(burst: 2, window: .seconds(10), maxKeys: 16)
    // 16 keys, each taking a token a second apart: key 0 the quietest.
    for key in 0..<16 { #expect(budgets.take(key, now: .seconds(key)) == nil) }
    #expect(budgets.count == 16)
    // At 20 s, keys 0 to 10 have not taken for a window: full again, forgotten.
    #expect(budgets.take(100, now: .seconds(20)) == nil)
    #expect(budgets.count == 6)
    // None idle now: the quietest go, down to 14, and the next key finds room.
    let busy = KeyedBudgets<Int>(burst: 2, window: .seconds(100), maxKeys: 16)
    for key in 0..<16 { _ = busy.take(key, now: .seconds(key)) }
    _ = busy.take(0, now: .seconds(16))
    _ = busy.take(0, now: .seconds(16))
    #expect(busy.take(100, now: .seconds(17)) == nil)
    #expect(busy.count == 15, "14 kept, and the new one")
    // The busiest key kept its spent bucket: no token left for it.
    #expect(busy.take(0, now: .seconds(17)) != nil)
  }
}
