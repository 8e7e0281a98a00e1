import Foundation
import QnA

// How fast QnAState applies server messages, and how that scales with the number of
// questions, beside baselines measured in the same run. Setup (building states, encoding
// messages) is outside every timing; each timing is the fastest of five runs.

let repetitions = 5

/// Seconds for `body(prepared)`, the fastest of `repetitions` runs, with `prepare` untimed.
func measure<Input>(prepare: () -> Input, _ body: (inout Input) -> Int) -> Double {
  let clock = ContinuousClock()
  var best = Double.infinity
  var sink = 0
  for _ in 0..<repetitions {
    var input = prepare()
    let start = clock.now
    sink &+= body(&input)
    let elapsed = start.duration(to: clock.now)
    best = min(
      best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }
  precondition(sink != 0)
  return best
}

func nanoseconds(_ seconds: Double, per count: Int) -> String {
  String(format: "%.0f", seconds / Double(count) * 1e9)
}

func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

// MARK: 100k server messages

let half = 50_000
let messages = (0..<half).map(response) + (0..<half).map(answer)
let codec = WireCodec()
let encoded = messages.map { codec.encode($0) }

func halfSent() -> QnAState { stateWithQuestionsSent(half) }
func nothing() {}

let ours = measure(prepare: halfSent) { state in
  var effects = 0
  for message in messages { effects &+= state.apply(.received(message)).count }
  precondition(state.counts.answered == half)
  return effects
}
let dictionary = measure(prepare: DictionaryBaseline.init) { baseline in
  messages.reduce(0) { $0 &+ baseline.apply($1) }
}
let decodedAndApplied = measure(prepare: halfSent) { state in
  var effects = 0
  for bytes in encoded {
    effects &+= state.apply(.received(try! codec.decode(bytes))).count
  }
  return effects
}
let decodedOnly = measure(prepare: nothing) { _ in
  encoded.reduce(0) { count, bytes in count &+ ((try? codec.decode(bytes)) == nil ? 0 : 1) }
}

print("## QnAState: applying 100k server messages (50k responses, then 50k answers)\n")
print("| row | ns/message | baseline | baseline ns/message | ours ÷ baseline |")
print("|---|---:|---|---:|---:|")
print(
  "| apply decoded messages | \(nanoseconds(ours, per: messages.count)) | bare Dictionary update "
    + "| \(nanoseconds(dictionary, per: messages.count)) | \(ratio(ours / dictionary)) |")
print(
  "| decode (WireCodec) + apply | \(nanoseconds(decodedAndApplied, per: messages.count)) "
    + "| decode alone | \(nanoseconds(decodedOnly, per: messages.count)) "
    + "| \(ratio(decodedAndApplied / decodedOnly)) |")

// MARK: questionAnswer against the number of questions

print("\n## QnAState: questionAnswer on a state of N confirmed questions\n")
print("| N | ns/answer | × the N = 100 cost | linear-scan model ns/answer | scan ÷ ours |")
print("|---:|---:|---:|---:|---:|")
var smallest: Double?
for count in [100, 1_000, 10_000, 100_000] {
  // Enough answers per run to time reliably: every question answered, at least 100k.
  let rounds = max(1, 100_000 / count)
  let answers = (0..<count).map(answer)
  func confirmedStates() -> [QnAState] {
    (0..<rounds).map { _ in stateWithQuestionsConfirmed(count) }
  }
  func scanModels() -> [LinearScanBaseline] {
    (0..<rounds).map { _ in LinearScanBaseline(confirmed: count) }
  }
  let seconds = measure(prepare: confirmedStates) { states in
    var flipped = 0
    for index in states.indices {
      for message in answers { flipped &+= states[index].apply(.received(message)).count }
    }
    return flipped
  }
  let perAnswer = seconds / Double(rounds * count)
  smallest = smallest ?? perAnswer
  var scanColumns = "– | –"
  if count <= 10_000 {
    let scan = measure(prepare: scanModels) { models in
      var flipped = 0
      for index in models.indices {
        for message in answers { flipped &+= models[index].apply(message) }
      }
      return flipped
    }
    let scanPerAnswer = scan / Double(rounds * count)
    scanColumns =
      "\(String(format: "%.0f", scanPerAnswer * 1e9)) | \(ratio(scanPerAnswer / perAnswer))"
  }
  print(
    "| \(count) | \(String(format: "%.0f", perAnswer * 1e9)) | \(ratio(perAnswer / smallest!)) "
      + "| \(scanColumns) |")
}
