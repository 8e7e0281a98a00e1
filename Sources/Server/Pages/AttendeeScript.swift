/// The attendee page's script, `/assets/room.js`: the room over the room's socket as `qna`
/// speaks it (tokens, resume, the compact room, votes, identity). What is typed offline —
/// questions and votes — waits in the browser's storage and goes once, in order, when the
/// socket is back. Content goes in as text, never as markup.
package enum AttendeeScript {
  /// The script's words, translated by the page (`data-messages`).
  package static let messages = [
    scriptWord("Live"), scriptWord("Reconnecting…"),
    scriptWord("Offline: your questions wait here."),
    scriptWord("Vote"), scriptWord("Votes"), scriptWord("Take back your vote"),
    scriptWord("Answer:"), scriptWord("Answered privately:"), scriptWord("Waiting to send"),
    scriptWord("Sent"), scriptWord("In review"), scriptWord("Live in the room"),
    scriptWord("Answered"), scriptWord("Dismissed"), scriptWord("Not sent:"),
    scriptWord("Try again"),
    scriptWord("Discard"), scriptWord("Your question was answered:"), scriptWord("Now answering:"),
    scriptWord("This session is closed: it takes no new questions."), scriptWord("yours"),
    scriptWord("Loading…"), scriptWord("No questions yet."),
    scriptWord("The presenter deleted this session."),
    scriptWord("The presenter reopened this session: it takes questions again."),
    scriptWord("Announcement:"), scriptWord("edited by the presenter"), scriptWord("next up"),
    scriptWord("No label"), scriptWord("All labels"),
  ]

  /// The script: its state and what it sends (`core`), what it receives
  /// (`AttendeeScript.room`), which of the room's tabs sends (`AttendeeScript.sender`), and
  /// what it shows (`AttendeeScript.view`).
  package static let source = core + room + sender + view

  static let core = #"""
    (() => {
      'use strict';
      const body = document.body;
      const SOCKET = body.dataset.socket || '/socket';
      const words = (() => { try { return JSON.parse(body.dataset.messages || '{}'); } catch { return {}; } })();
      const word = (id) => words[id] || id;
      const $ = (id) => document.getElementById(id);
      const decoded = (data) => (typeof data === 'string' ? data : new TextDecoder().decode(data));
      const since2001 = 978307200;
      \#(ScriptParts.printable)
      \#(ScriptParts.uuid)
      \#(ScriptParts.applyCounts)
      // Kept per room, across reloads and restarts of the browser.
      const key = (name) => `qna:${SOCKET}:${name}`;
      const load = (name, fallback) => {
        try { const v = localStorage.getItem(key(name)); return v ? JSON.parse(v) : fallback; } catch { return fallback; }
      };
      const save = (name, value) => { try { localStorage.setItem(key(name), JSON.stringify(value)); } catch {} };
      // A question the page's form stored (scripts off) has an attendee of its own, named by
      // the form's cookie: a browser with no attendee in this room yet joins as that one (the
      // server issues it the credential no join has proved), so the question is its own.
      const asker = (document.cookie.match(/(?:^|;\s*)qna-asker=([0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12})(?:;|$)/i) || [])[1];
      const secure = location.protocol === 'https:' ? '; Secure' : '';
      if (asker) document.cookie = `qna-asker=; Max-Age=0; Path=${body.dataset.base || '/room/'}; SameSite=Strict${secure}`;
      let attendee = load('attendee', null) || (asker && asker.toUpperCase()) || uuid();
      let credential = load('credential', null);
      save('attendee', attendee);
      // Questions typed and not yet confirmed, in typed order: {token, content, label?, failed?}.
      let outbox = load('outbox', []);
      // Votes not yet answered, by question: {up, token, shown}; `sent` on this connection.
      let votes = load('votes', {});
      // My confirmed questions, newest last: {id, token, content}, for resume and "yours".
      let kept = load('kept', []);
      const mine = new Set(kept.map((q) => q.id));
      const questions = new Map(), numbers = new Map();
      let voted = new Set();
      let seq = null, epoch = null, highlighted = null, pages = null, gapAt = null;
      // Extension queue: the presenters' next questions, while they show them.
      let nextUp = [];
      // Extension labels: the session's labels, and the one the list shows ('' for all).
      let labels = [], labelFilter = '';
      let socket = null, connection = null, joined = false, retry = 500, inFlight = null, timer = null, gone = false;
      let extensions = [];
      let sort = 'votes', filter = '';
      const keepLimit = 500;
      // Whether this tab sends what waits (questions and votes): one tab of a room at a time
      // does, while its socket is joined (`AttendeeScript.sender`); the others leave what they
      // are given in the storage for it, and hear from it what became of it.
      let sender = false;

      const say = (text) => { $('status').textContent = text; };
      const announce = (text) => { $('announcements').textContent = text; };
      // Extension announcements: the presenter's banner; read out when it changes.
      const banner = (a) => {
        const text = a && typeof a.text === 'string' ? printable(a.text).slice(0, 280) : '';
        if (text === $('banner-text').textContent) return;
        $('banner-text').textContent = text;
        $('banner').hidden = !text;
        if (text) announce(`${word('Announcement:')} ${text}`);
      };
      const shortLabel = (l) => Array.from(printable(l)).slice(0, 40).join('');
      // A select's options: the first (no label, all labels), then the session's labels.
      const fill = (select, first) => {
        const chosen = select.value;
        const option = (value, text) => { const o = document.createElement('option'); o.value = value; o.textContent = text; return o; };
        select.replaceChildren(option('', word(first)), ...labels.map((l) => option(l, shortLabel(l))));
        select.value = labels.includes(chosen) ? chosen : '';
      };
      const setLabels = (list) => {
        if (!Array.isArray(list)) return;
        // The names as the server sends them (the value a question is asked under); shown
        // made printable and cut at 40 characters.
        labels = list.filter((l) => typeof l === 'string' && l.length <= 320).slice(0, 20);
        fill($('label'), 'No label');
        fill($('label-filter'), 'All labels');
        for (const id of ['label', 'label-caption', 'label-filter-caption']) $(id).hidden = !labels.length;
        if (!labels.includes(labelFilter)) labelFilter = '';
      };
      const stateOf = (q) => q.state || (q.answered ? 'answered' : 'live');
      const has = (name) => extensions.includes(name);
      // `news`: a change as it happens (not a snapshot), which the live region may read out.
      const learn = (q, news) => {
        const old = questions.get(q.id);
        if (old && old.mine) q.mine = true;
        if (old && old.answer && q.answer === undefined && q.answered) {
          q.answer = old.answer;
          q.private = old.private;
        }
        questions.set(q.id, q);
        if (Number.isInteger(q.n)) numbers.set(q.n, q.id);
        if (news && mine.has(q.id) && q.answered && old && !old.answered) {
          announce(`${word('Your question was answered:')} ${printable(q.content)}`
            + (q.answer ? ` ${word(q.private ? 'Answered privately:' : 'Answer:')} ${printable(q.answer)}` : ''));
        }
      };
      const remember = (id, token, content) => {
        if (mine.has(id)) return;
        mine.add(id);
        kept.push({ id, token, content });
        // Bounded: the oldest leave first (their answers came long ago).
        if (kept.length > keepLimit) kept = kept.slice(-keepLimit);
        save('kept', kept);
      };

      function send(message) {
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      }
      const later = (seconds) => Math.min(600, Math.max(0.05, Number(seconds) || 1)) * 1000;

      // One question on the wire at a time, the oldest first: nothing typed later overtakes it,
      // not even one told to wait.
      function pump() {
        if (!joined || !sender || inFlight) return;
        const next = outbox.find((q) => !q.failed);
        if (!next) return;
        if (next.waitUntil > Date.now()) {
          clearTimeout(next.timer);
          next.timer = setTimeout(pump, next.waitUntil - Date.now());
          return;
        }
        inFlight = next.token;
        const message = { type: 'newQuestion', id: connection, content: next.content, token: next.token };
        if (next.label && has('labels')) message.label = next.label;
        send(message);
      }
      // Each vote once per connection; one told to wait goes again after its delay.
      function sendVotes() {
        if (!joined || !sender || !has('room')) return;
        let wait = null;
        for (const [question, intent] of Object.entries(votes)) {
          if (intent.sent) continue;
          if (intent.waitUntil > Date.now()) { wait = Math.min(wait ?? Infinity, intent.waitUntil - Date.now()); continue; }
          intent.sent = true;
          send({ type: 'vote', id: connection, question, up: intent.up, token: intent.token });
        }
        if (wait !== null) { clearTimeout(sendVotes.timer); sendVotes.timer = setTimeout(sendVotes, wait); }
      }
      function join(extra) {
        const message = { type: 'join', id: connection, attendee, ...extra };
        if (credential) message.credential = credential;
        const name = $('name').value.trim();
        if (name) message.name = name;
        if (has('counts')) message.counts = true;
        send(message);
      }
    """#
}
