import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What the UI loop must do after a key: the model itself never performs effects.
public enum TerminalAction: Sendable, Equatable {
  case ask(String)
  /// Ask again a question the server refused (its token).
  case retry(QnA.Question.ID)
  /// Give up a question the server refused (its token).
  case discard(QnA.Question.ID)
  /// Vote for a question of the room (`up`), or take the vote back.
  case vote(UUID, up: Bool)
  /// The presenter's console: an action on a question, or undo the last one.
  case act(PresenterActionKind, UUID?, text: String?, isPrivate: Bool)
  case undo
  /// The label the attendee's next questions go under (`nil`: none).
  case label(String?)
  /// Answer a poll (extension `polls`), or change the answer.
  case answerPoll(UUID, PollValue)
  /// The presenter's console: an action on a poll.
  /// `text`: an open text's entry, for `approve` and `dismiss`.
  case pollAction(PollActionKind, UUID, text: String? = nil)
  case reconnectNow
  /// Forget what is on screen and paint everything again (Ctrl-L).
  case redraw
  case quit
}

/// Everything the screen shows: the engine's latest state and the UI's own (input line,
/// scrolling, overlays, local notices). Pure: keys in, actions out, and `view` draws it.
public struct TerminalModel: Sendable {
  public struct Options: Sendable {
    public var url: String
    /// Colours, or bold/reverse only (monochrome terminals, `NO_COLOR`).
    public var colors: Bool
    public var maxLength: Int
    /// Whether queued questions survive quitting (the pending file is ours).
    public var keepsQueuedQuestions: Bool
    /// How long a question that was just answered stays highlighted.
    public var highlightDuration: Duration
    /// The presenter's console (`qna present`): tabs by state, keys that act.
    public var presenter: Bool
    /// For screen readers and braille displays (`--screen-reader`): nothing repainted on a
    /// timer, words instead of glyphs, events announced in the footer, the room redrawn on a
    /// key rather than under the reader's cursor.
    public var screenReader: Bool
    /// `qna screen`: the room for a projector, and where to join it, instead of a client.
    public var projector: ProjectorScreen?
    /// The presenter's console: where attendees join (`j` shows it, with its QR code).
    public var join: ProjectorScreen?

    public init(
      url: String, colors: Bool = true, maxLength: Int = 1000, keepsQueuedQuestions: Bool = true,
      highlightDuration: Duration = .seconds(3), presenter: Bool = false,
      screenReader: Bool = false
    ) {
      self.presenter = presenter
      self.screenReader = screenReader
      self.url = url
      self.colors = colors
      self.maxLength = maxLength
      self.keepsQueuedQuestions = keepsQueuedQuestions
      self.highlightDuration = highlightDuration
    }
  }

  public var options: Options
  public private(set) var state: QnAState
  /// `state.orderedQuestions`, sorted once per state rather than once per frame.
  public private(set) var questions: [Question]
  public var rows: Int
  public var columns: Int
  /// The clock reading frames are drawn at (same clock as the state's).
  public var now: Duration = .zero
  public internal(set) var editor = LineEditor()
  public internal(set) var history = InputHistory()
  public internal(set) var scroll = ScrollPosition.following
  public internal(set) var showsHelp = false
  /// The first key the help shows (↑ ↓ scroll it when the terminal is too short for all).
  public internal(set) var helpScroll = 0
  /// The presenter's `j`: how to join, large, until any key.
  public internal(set) var showsJoin = false
  /// The poll being answered (F5), if any.
  public internal(set) var pollPanel: PollPanel?
  public internal(set) var confirmingQuit = false
  /// Inside a bracketed paste: line breaks become spaces instead of asking.
  public internal(set) var pasting = false
  /// The first column of the input shown (long input scrolls sideways).
  public internal(set) var inputOffset = 0
  /// The UI's own notices (a question too long, a refused one put back).
  public internal(set) var localNotices: [Notice] = []
  /// Clock times of the flips to answered still highlighted, for the highlights' ends.
  private var recentAnswers: [Duration] = []
  /// Questions asked (an `.ask` action out) that the engine has not taken yet: they are not
  /// in `state` yet, and quitting must still count them.
  public internal(set) var asksInFlight = 0
  /// The list chosen with Tab (`nil`: the default for the server).
  public internal(set) var chosenView: ListView?
  /// How the room view is sorted (F2 toggles).
  public internal(set) var order = RoomOrder.popular
  /// The room view's selected question; `nil`: none, the view shows the top of the room (in
  /// the console, only while its list is empty).
  public internal(set) var selection: RoomSelection?
  /// The last key moved in the list (↑ ↓, pages, Home/End) rather than in the line being
  /// typed: the terminal's cursor, which screen readers and braille displays follow, is then
  /// on the list's focused question (`listFocusIsShown`).
  public internal(set) var listHasFocus = false
  /// The search line, while it is open (`/` on an empty line).
  public internal(set) var search: LineEditor?
  /// What the room view is searched for ("" shows everything).
  public internal(set) var filter = ""
  /// `state.roomEntries(order)`, searched: sorted once per state rather than once per frame.
  public internal(set) var roomEntries: [RoomEntry] = []
  /// Questions of the room this attendee votes for.
  public internal(set) var roomVoted = 0
  /// The presenter's console: the list shown (by state), how many each list holds, and the
  /// answer being typed (the input line is its editor then).
  public internal(set) var presenterTab = QuestionState.live
  public internal(set) var tabCounts: [QuestionState: Int] = [:]
  public internal(set) var answering: AnswerDraft?
  /// The presenter's console: a line about the room is being typed (the input line is its
  /// editor): an announcement, or a word for the filter.
  public internal(set) var roomEdit: RoomEdit?
  /// Screen-reader mode: the room changed since it was last drawn (it is redrawn on a key).
  public internal(set) var roomIsStale = false
  /// Screen-reader mode: the cursor is on the footer's announcement (F3), until the next key.
  public internal(set) var announcementHasFocus = false
  /// Screen-reader mode: the footer's line, until the next announcement replaces it.
  public internal(set) var announcement: Announcement?
  /// How many questions the room list holds, searched or not (as drawn).
  public internal(set) var roomSize = 0
  /// Screen-reader mode: the seconds a reconnection waits, said once when it starts waiting.
  var retrySaid: (at: Duration, seconds: Int64)?
  /// Screen-reader mode: a connection was ready once (a later one is "connected again").
  var hasConnected = false

  public init(options: Options, state: QnAState = QnAState(), rows: Int = 24, columns: Int = 80) {
    self.options = options
    self.state = state
    self.questions = state.orderedQuestions
    recentAnswers = Self.recentAnswers(
      questions, now: state.now, within: options.highlightDuration)
    self.rows = rows
    self.columns = columns
    refreshRoom()
    hasConnected = state.connection.isReady
    if case .waitingToRetry(let at, _, _) = state.connection {
      retrySaid = (at, DurationValue.wholeSeconds(max(.zero, at - state.now), roundingUp: true))
    }
  }

  /// Takes the engine's latest state. Returns whether a question of this attendee's has
  /// just become the one being answered (worth the bell).
  @discardableResult
  public mutating func update(state: QnAState) -> Bool {
    let (before, questionsBefore) = (self.state, questions)
    let answeringBefore = self.state.room.highlighted
    self.state = state
    questions = state.orderedQuestions
    now = max(now, state.now)
    recentAnswers = Self.recentAnswers(questions, now: now, within: options.highlightDuration)
    if options.screenReader {
      announceChanges(from: before, questionsBefore: questionsBefore)
      refreshRoomForReader(from: before)
    } else {
      refreshRoom()
    }
    guard let answering = state.nowAnswering, answering.id != answeringBefore else {
      return false
    }
    return answering.mine
  }

  static func recentAnswers(_ questions: [Question], now: Duration, within: Duration)
    -> [Duration]
  {
    questions.compactMap { $0.answeredAt.flatMap { $0 + within > now ? $0 : nil } }
  }

  /// The engine has taken an asked question (it is in the states from now on).
  public mutating func askTaken() { asksInFlight = max(0, asksInFlight - 1) }

  /// A question the engine refused (its notice says why): back into the input line, so that
  /// nothing typed is lost; into the history if something new is being typed.
  public mutating func restoreInput(_ text: String) {
    askTaken()
    if editor.isEmpty {
      editor.replace(with: text)
      keepCursorVisible()
    } else {
      history.record(text)
      addNotice(
        tr("The refused question is in the history: Ctrl-P brings it back."), kind: .info)
    }
  }

  public mutating func resize(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
    keepCursorVisible()
  }

  // MARK: Layout

  public static let minimumColumns = 40
  public static let minimumRows = 6

  var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }
  /// Whether the question being answered now is pinned under the header.
  /// A screen reader's list keeps its rows: the banner's row is kept for it even when empty.
  var showsBanner: Bool {
    (options.screenReader || state.nowAnswering != nil) && rows > Self.minimumRows
  }
  /// Whether the presenter's announcement is shown under the header (the "now answering"
  /// banner under it).
  var showsAnnouncement: Bool {
    state.room.announcement?.text != nil && rows > Self.minimumRows + 1
  }
  /// The row of the "now answering" banner.
  var bannerRow: Int { showsAnnouncement ? 2 : 1 }
  /// Whether a strip under the banner says a poll is open (extension `polls`): attendees'.
  var showsPollStrip: Bool {
    !options.presenter && !openPolls.isEmpty && rows > Self.minimumRows + 2
  }
  /// The row of the poll strip.
  var pollStripRow: Int { 1 + (showsAnnouncement ? 1 : 0) + (showsBanner ? 1 : 0) }
  /// The first row of the list area.
  package var listTop: Int {
    1 + (showsAnnouncement ? 1 : 0) + (showsBanner ? 1 : 0) + (showsPollStrip ? 1 : 0)
  }
  /// Rows between the header (and banner) and the footer (a screen reader's footer has a
  /// second line: its announcement, whole, apart from the counts).
  var listHeight: Int { max(0, rows - (options.screenReader ? 3 : 2) - listTop) }
  var questionList: QuestionList {
    QuestionList(
      questions: questions, width: columns, height: listHeight,
      now: options.screenReader ? nil : now, words: options.screenReader)
  }

  /// A prompt's words and its mark (a colon for a screen reader, which reads "›" by name).
  func prompt(_ words: String) -> String {
    words + (options.screenReader ? ": " : " › ")
  }
  /// "Ask a question", and the label the question goes under when the attendee picked one.
  var inputPrompt: String {
    guard let label = state.askLabel else { return prompt(tr("Ask a question")) }
    return prompt(
      Catalogue.format(
        tr("Ask under %s"),
        "[" + Sanitizer.forScreen(String(label.prefix(SessionLabels.maxLength))) + "]"))
  }
  var searchPrompt: String { prompt(tr("Search the room")) }
  /// Columns for the input text: after the prompt, before the character counter.
  var inputWidth: Int { max(1, columns - TextWidth.of(inputPrompt) - counterWidth - 1) }
  var counterWidth: Int { showsCounter ? String(options.maxLength).count * 2 + 2 : 0 }
  /// The counter appears once the input nears the limit.
  var showsCounter: Bool { editor.characters.count * 10 >= options.maxLength * 8 }

  mutating func keepCursorVisible() {
    let cursorColumn = TextWidth.of(String(editor.characters[..<editor.cursor]))
    if cursorColumn < inputOffset {
      inputOffset = max(0, cursorColumn - inputWidth / 3)
    } else if cursorColumn >= inputOffset + inputWidth {
      inputOffset = cursorColumn - inputWidth + 1
    }
    if editor.cursor == 0 { inputOffset = 0 }
  }

  // MARK: Time

  /// Notices up now: the engine's and the UI's, oldest first.
  package var notices: [Notice] {
    (state.notices + localNotices).filter { $0.expiresAt > now }.sorted {
      $0.expiresAt < $1.expiresAt
    }
  }

  func isHighlighted(_ question: Question) -> Bool {
    guard !options.screenReader, question.status == .answered, let at = question.answeredAt else {
      return false
    }
    return now < at + options.highlightDuration
  }

  /// When the screen next changes without any input: a countdown ticks, a notice expires, a
  /// highlight ends. `nil`: not until something happens (an idle UI sleeps).
  public var nextChange: Duration? {
    // Nothing a screen reader would read again: every change waits for an event or a key.
    if options.screenReader { return nil }
    var times = notices.map(\.expiresAt)
    if case .waitingToRetry(let at, _, _) = state.connection, at > now {
      // When the whole seconds shown go down by one.
      let left = at - now
      let shown = Duration.seconds(DurationValue.wholeSeconds(left, roundingUp: true))
      times.append(now + left - shown + .seconds(1))
    }
    times += recentAnswers.map { $0 + options.highlightDuration }
    times += state.room.risenAt.values.map { $0 + Self.riseDuration }
    // Waiting questions count down in whole seconds.
    for question in questions {
      guard case .waiting(let until, _) = question.status, until > now else { continue }
      let left = until - now
      let shown = Duration.seconds(DurationValue.wholeSeconds(left, roundingUp: true))
      times.append(now + left - shown + .seconds(1))
    }
    return times.filter { $0 > now }.min()
  }

  mutating func addNotice(_ text: String, kind: Notice.Kind) {
    if options.screenReader { announcement = Announcement(text: text, isError: kind == .error) }
    localNotices.removeAll { $0.expiresAt <= now }
    localNotices.append(Notice(text: text, kind: kind, expiresAt: now + .seconds(5)))
    if localNotices.count > 3 { localNotices.removeFirst() }
  }
}
