/// The style sheet of the attendee page and the projector view, `/assets/room.css`: a
/// 360-pixel phone first, light or dark as the system is, text at least 4.5:1 against its
/// background (WCAG AA; `Tests/Browser/page_check.py` measures it).
package enum RoomStyle {
  /// The start of the attendee page and the projector view, to the end of their `head`: the
  /// phone's viewport, light and dark, and this style sheet.
  static func head(title: String, language: String) -> String {
    """
    <!doctype html>
    <html lang="\(HTML.escape(language))"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>\(HTML.escape(title))</title>
    <link rel="stylesheet" href="/assets/room.css"></head>
    """
  }

  package static let source = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1a1a1a; --muted: #4d4d4d;
      --line: #d0d0d0; --accent: #0b57d0; --accent-fg: #ffffff; --now: #fff4c2; --now-fg: #1a1a1a;
      --answer: #1e5631; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #121212; --fg: #ececec; --muted: #b8b8b8; --line: #3a3a3a; --accent: #8ab4f8;
        --accent-fg: #0d1b2e; --now: #3d3400; --now-fg: #fff8d6; --answer: #8fd4a4; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 1rem/1.5 system-ui, sans-serif; }
    .attendee header, .attendee main, .attendee footer { max-width: 44rem; margin: 0 auto; padding: 0 1rem; }
    h1 { font-size: 1.4rem; margin: 1rem 0 .25rem; overflow-wrap: anywhere; }
    h2 { font-size: 1.15rem; margin: 1.25rem 0 .5rem; }
    h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
    p { margin: .25rem 0; }
    .text, #now-text { white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: isolate; }
    .code strong { letter-spacing: .1em; }
    #status, .meta, footer { color: var(--muted); font-size: .9rem; }
    .label { border: 1px solid currentColor; border-radius: .3em; padding: 0 .3em; }
    #now { background: var(--now); color: var(--now-fg); padding: .5rem .75rem; border-radius: .5rem; }
    #now h2 { margin-top: 0; }
    .banner { background: var(--accent); color: var(--accent-fg); padding: .5rem .75rem;
      border-radius: .5rem; margin: .5rem 0; overflow-wrap: anywhere; unicode-bidi: isolate; }
    .banner[hidden] { display: none; }
    .screen .banner { font-size: 1.3em; font-weight: 600; }
    form { display: grid; gap: .4rem; }
    textarea, input, select, button { font: inherit; color: inherit; }
    textarea, input, select { width: 100%; padding: .5rem; border: 1px solid var(--muted);
      border-radius: .4rem; background: var(--bg); }
    .controls { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
    button { min-height: 2.75rem; padding: .4rem 1rem; border-radius: .4rem; cursor: pointer;
      border: 1px solid var(--accent); background: var(--bg); color: var(--fg); }
    form button { background: var(--accent); color: var(--accent-fg); font-weight: 600; }
    button:focus-visible, textarea:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px; }
    button:disabled, textarea:disabled, input:disabled { opacity: .6; cursor: not-allowed; }
    a { color: var(--accent); }
    ol { list-style: none; padding: 0; margin: 0; }
    #questions li, #mine-list li { border-bottom: 1px solid var(--line); padding: .6rem 0; }
    #questions li.now { background: var(--now); color: var(--now-fg); padding: .6rem .5rem; }
    #questions li.answered .text { color: var(--muted); }
    .answer { color: var(--answer); }
    .vote { min-width: 4.5rem; margin-right: .5rem; }
    .vote[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); }
    footer { margin: 2rem auto; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip-path: inset(50%); white-space: nowrap; }
    /* The projector: legible from the back of a hall at 1280×720 and 1920×1080. */
    .screen main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(16rem, 30vw); gap: 3vw;
      min-height: 100vh; padding: 3vw; font-size: 2.2vw; }
    .screen h1 { font-size: 1.3em; margin: 0 0 .5em; white-space: nowrap; overflow: hidden;
      text-overflow: ellipsis; }
    .screen h2 { font-size: 1.1em; color: var(--muted); }
    .screen #now-label { color: var(--muted); }
    .screen #now-text { font-size: 2.4em; line-height: 1.25; font-weight: 600; margin: .2em 0 .6em;
      max-height: 6.5em; overflow: hidden; }
    .screen #now-text.long { font-size: 1.5em; max-height: 9.5em; }
    .screen #now-text.idle { font-size: 1.4em; font-weight: 400; color: var(--muted); }
    .screen #next li { display: flex; gap: .8em; padding: .3em 0; border-bottom: 1px solid var(--line);
      max-height: 3.2em; overflow: hidden; }
    .screen #next .votes { min-width: 3.5em; font-weight: 700; }
    .screen .join { text-align: center; }
    .screen #audience { font-size: 1.2em; font-weight: 600; }
    .screen .join svg { shape-rendering: crispEdges; width: 100%; max-width: 28vw; max-height: 55vh; background: #fff; }
    .screen .address { overflow-wrap: anywhere; font-size: .8em; }
    .screen .code strong { font-size: 1.5em; }
    @media (max-width: 40rem) { .screen main { grid-template-columns: 1fr; font-size: 1rem; } }
    """
}
