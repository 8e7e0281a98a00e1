import Foundation
import QnA
import QnATerminal

enum FrameBenchmark {
  static let rows = 60
  static let columns = 200
  static let questionCount = 10_000

  static func run() {
    let state = stateWithQuestions(questionCount)
    var model = TerminalModel(
      options: .init(url: "ws://127.0.0.1:8080/socket"), state: state, rows: rows,
      columns: columns)
    model.now = state.now

    let following = fastestFrame(model)
    var scrolled = model
    for _ in 0..<(questionCount / 2 / rows) { _ = scrolled.handle(.pageUp) }
    let middle = fastestFrame(scrolled)
    let answered = fastestFrameAfterAnAnswer(model, state)
    let naive = fastest(runs: 5) { () -> Int in
      // What a list not bounded by the screen pays: every question wrapped, every frame.
      let width = columns - 14
      return model.questions.reduce(0) { count, question in
        count + TextWrap.lines(Sanitizer.forScreen(question.content), width: width).count
      }
    }
    let ordering = fastest(runs: 5) { () -> Int in
      var copy = model
      copy.update(state: state)
      return copy.questions.count
    }

    printTable(
      "Frame of \(questionCount) questions at \(columns)×\(rows), fastest of 200 frames",
      cases: [
        ("view + diff, following the newest", following),
        ("view + diff, scrolled to the middle", middle),
        ("view + diff, one answer since last frame", answered),
      ], naive: naive, questions: questionCount,
      perChange: ("order \(questionCount) questions", ordering))
    print("")
    runRoom(naive: naive)
  }

  /// The room view of 10,000 questions: at the top, with the selection in the middle, and a
  /// frame after a delta of votes (which reorders the room).
  static func runRoom(naive: Double) {
    var driverState = roomState(questionCount)
    var model = TerminalModel(
      options: .init(url: "ws://127.0.0.1:8080/socket"), state: driverState, rows: rows,
      columns: columns)
    model.now = driverState.now
    let top = fastestFrame(model)
    var selected = model
    _ = selected.handle(.end)
    for _ in 0..<(questionCount / 2 / rows) { _ = selected.handle(.pageUp) }
    let middle = fastestFrame(selected)
    var states: [QnAState] = []
    for step in 0..<200 {
      let question = RoomQuestion(
        id: serverID(step * 37 % questionCount), content: roomText(step * 37 % questionCount),
        votes: 5_000 + step, answered: false,
        createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(step * 37 % questionCount)))
      _ = driverState.apply(
        .received(.roomDelta(RoomDelta(from: 2 + step, to: 2 + step, questions: [question]))))
      states.append(driverState)
    }
    var best = Double.infinity
    var previous = TerminalView.render(selected).grid
    var changedCells = 0
    for next in states {
      selected.update(state: next)  // untimed: the room's order is measured on its own
      let start = ContinuousClock.now
      let frame = TerminalView.render(selected)
      changedCells += GridDiff.changedCells(from: previous, to: frame.grid).count
      best = min(best, (ContinuousClock.now - start) / .seconds(1))
      previous = frame.grid
    }
    precondition(changedCells > 0)
    let ordering = fastest(runs: 5) { () -> Int in
      var copy = model
      copy.update(state: driverState)
      return copy.roomEntries.count
    }
    printTable(
      "Room view of \(questionCount) questions at \(columns)×\(rows), fastest of 200 frames",
      cases: [
        ("view + diff, the top of the room", top),
        ("view + diff, selection in the middle", middle),
        ("view + diff, a delta of votes since last frame", best),
      ], naive: naive, questions: questionCount,
      perChange: ("sort \(questionCount) by votes", ordering))
  }

  /// One table: each case against laying out every question, the cost paid once per state
  /// change, and whether every case meets the 2 ms target.
  static func printTable(
    _ title: String, cases: [(String, Double)], naive: Double, questions: Int,
    perChange: (String, Double)
  ) {
    print(title)
    print(pad("case", 44) + pad("time", 12) + "vs baseline")
    for (name, time) in cases { print(pad(name, 44) + pad(micro(time), 12) + ratio(naive / time)) }
    print(pad("baseline: lay out all \(questions) questions", 44) + pad(micro(naive), 12) + "1.00×")
    print(
      pad("per state change: \(perChange.0)", 44) + pad(micro(perChange.1), 12)
        + "(once per change, not per frame)")
    let worst = cases.map(\.1).max() ?? 0
    print("target: view + diff under 2 ms → " + (worst < 0.002 ? "met" : "NOT met"))
  }

  static func roomText(_ index: Int) -> String {
    let texts = [
      "How does the engine notice a dead connection?",
      "Could you say more about the trade-offs between a sans-I/O core and a runtime that owns its sockets, "
        + "especially for testing with injected clocks?",
      "日本語の質問はどのように表示されますか？",
      "Short one 👍",
    ]
    return texts[index % texts.count] + " #\(index)"
  }

  /// A room of `count` questions, arrived as a paged snapshot from a server with the room.
  static func roomState(_ count: Int) -> QnAState {
    var state = QnAState()
    _ = state.apply(.clock(.seconds(100)))
    _ = state.apply(.identity(attendee: UUID(), name: nil))
    _ = state.apply(.connecting(attempt: 1))
    _ = state.apply(.connected)
    _ = state.apply(
      .received(.handshake(Handshake(id: UUID(), extensions: [ProtocolExtension.room]))))
    let epoch = UUID()
    let questions = (0..<count).map { index in
      RoomQuestion(
        id: serverID(index), content: roomText(index), votes: (index * 7919) % 500,
        answered: index % 3 == 0,
        createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)), mine: false,
        voted: index % 11 == 0)
    }
    let perPage = 100
    let parts = (count + perPage - 1) / perPage
    for part in 0..<parts {
      _ = state.apply(
        .received(
          .room(
            RoomSnapshot(
              seq: 1, part: part + 1, parts: parts,
              questions: Array(questions[(part * perPage)..<min(count, (part + 1) * perPage)]),
              epoch: epoch))))
    }
    _ = state.apply(.clock(.seconds(200)))
    return state
  }

  /// View plus diff against the previous frame, the fastest of 200.
  static func fastestFrame(_ model: TerminalModel) -> Double {
    var previous = TerminalView.render(model).grid
    return fastest(runs: 200) { () -> Int in
      let frame = TerminalView.render(model)
      let changed = GridDiff.changedCells(from: previous, to: frame.grid)
      previous = frame.grid
      return changed.count + 1
    }
  }

  /// One question flips to answered between frames: new state in, view plus diff out.
  static func fastestFrameAfterAnAnswer(_ model: TerminalModel, _ state: QnAState) -> Double {
    var states: [QnAState] = []
    var current = state
    for index in 0..<200 {
      _ = current.apply(
        .received(.questionAnswer(QuestionAnswer(questionId: serverID(questionCount - 1 - index)))))
      states.append(current)
    }
    var model = model
    var previous = TerminalView.render(model).grid
    var index = 0
    var best = Double.infinity
    for next in states {
      model.update(state: next)  // untimed: the ordering is measured on its own
      let start = ContinuousClock.now
      let frame = TerminalView.render(model)
      let changed = GridDiff.changedCells(from: previous, to: frame.grid)
      best = min(best, (ContinuousClock.now - start) / .seconds(1))
      previous = frame.grid
      index += changed.count
    }
    precondition(index > 0)
    return best
  }

  static func stateWithQuestions(_ count: Int) -> QnAState {
    var state = QnAState()
    _ = state.apply(.clock(.seconds(100)))
    _ = state.apply(.connecting(attempt: 1))
    _ = state.apply(.connected)
    let connection = UUID()
    _ = state.apply(.received(.handshake(Handshake(id: connection, extensions: ["token"]))))
    let texts = [
      "How does the engine notice a dead connection?",
      "Could you say more about the trade-offs between a sans-I/O core and a runtime that owns its sockets, "
        + "especially for testing with injected clocks?",
      "日本語の質問はどのように表示されますか？",
      "Short one 👍",
    ]
    for index in 0..<count {
      let token = tokenID(index)
      let text = texts[index % texts.count] + " #\(index)"
      _ = state.apply(.ask(text, token: token))
      _ = state.apply(
        .received(
          .questionResponse(
            QuestionResponse(
              success: true, message: "Question created", id: serverID(index), answered: false,
              content: text, createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)),
              token: token))))
      if index % 3 == 0 {
        _ = state.apply(.received(.questionAnswer(QuestionAnswer(questionId: serverID(index)))))
      }
    }
    _ = state.apply(.clock(.seconds(200)))
    return state
  }

  static func tokenID(_ index: Int) -> UUID { uuid(index, group: 0x70) }
  static func serverID(_ index: Int) -> UUID { uuid(index, group: 0x5E) }

  static func uuid(_ number: Int, group: Int) -> UUID {
    UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", group, number))!
  }

  static func fastest(runs: Int, _ body: () -> Int) -> Double {
    var best = Double.infinity
    var sink = 0
    for _ in 0..<runs {
      let start = ContinuousClock.now
      sink &+= body()
      best = min(best, (ContinuousClock.now - start) / .seconds(1))
    }
    precondition(sink != 0)
    return best
  }
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func micro(_ seconds: Double) -> String {
  seconds >= 0.001
    ? String(format: "%.2f ms", seconds * 1e3) : String(format: "%.0f µs", seconds * 1e6)
}

func ratio(_ value: Double) -> String { String(format: "%.1f× faster", value) }
