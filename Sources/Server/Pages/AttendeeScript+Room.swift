/// What the attendee page's script receives: the handshake, identity, the room's snapshots
/// and deltas, responses to questions and votes, and the answers to resumes.
extension AttendeeScript {
  static let room = #"""
      // The storage is every tab's of the room, and another tab may have added to it since this
      // one last read it (its storage event still on the way): a save keeps what is there, less
      // what this tab took out (answered, discarded), so no tab's write erases another's.
      const takenOut = new Set();
      const saveOutbox = () => {
        const here = new Set(outbox.map((q) => q.token));
        for (const q of load('outbox', [])) {
          if (q && q.token && !here.has(q.token) && !takenOut.has(q.token)) outbox.push(q);
        }
        save('outbox', outbox.map(({ token, content, label, failed }) => ({ token, content, label, failed })));
      };
      // A vote's latest intent wins, whichever tab made it (`at`, when it was made).
      const saveVotes = () => {
        for (const [id, kept] of Object.entries(load('votes', {}))) {
          if (!kept || !kept.token || takenOut.has(kept.token)) continue;
          const here = votes[id];
          if (!here || (here.token !== kept.token && (kept.at || 0) > (here.at || 0))) votes[id] = kept;
        }
        save('votes', Object.fromEntries(Object.entries(votes)
          .map(([id, { up, token, shown, at }]) => [id, { up, token, shown, at }])));
      };

      function connect() {
        clearTimeout(timer);
        if (socket) return;
        const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
        socket = new WebSocket(`${scheme}${location.host}${SOCKET}`);
        const current = socket;
        // The server's frames may be binary (one shared frame for every kind of client).
        socket.binaryType = 'arraybuffer';
        joined = false; inFlight = null;
        socket.onopen = () => { retry = 500; };
        socket.onclose = () => {
          if (current !== socket || gone) return;
          joined = false; inFlight = null; socket = null;
          quit();
          body.dataset.live = 'false';
          say(navigator.onLine === false ? word('Offline: your questions wait here.') : word('Reconnecting…'));
          // Backoff with jitter: a room dropped together does not come back as one wave.
          timer = setTimeout(connect, retry * (0.5 + Math.random()));
          retry = Math.min(retry * 2, 10000);
        };
        socket.onmessage = (event) => {
          const m = JSON.parse(decoded(event.data));
          receive(m);
          if (sender && ['questionResponse', 'voteResponse', 'questionAnswer'].includes(m.type)) relay(m);
        };
      }

      function handshake(m) {
        connection = m.id;
        extensions = m.extensions || [];
        if (m.session) closed(m.session.open === false);
        for (const intent of Object.values(votes)) intent.sent = false;
        if (has('room')) {
          join(seq !== null && epoch ? { since: seq, epoch } : {});
          // Answers given while away come back (in pages of 256, the newest first).
          const open = kept.filter((q) => !(questions.get(q.id) || {}).answered).map((q) => q.id).reverse();
          for (let i = 0; has('resume') && i < open.length; i += 256) {
            send({ type: 'resume', id: connection, questions: open.slice(i, i + 256), tokens: [] });
          }
        }
        joined = true;
        body.dataset.live = 'true';
        say(word('Live'));
        seek();
        pump();
        sendVotes();
      }

      function receive(m) {
        switch (m.type) {
          case 'handshake': handshake(m); break;
          case 'joined':
            if (m.attendee && m.credential) {
              attendee = m.attendee; credential = m.credential;
              save('attendee', attendee); save('credential', credential);
              sendVotes();
            } else if (m.retryAfter) {
              // No identity yet: join again when the server said; votes wait for it.
              const current = socket;
              setTimeout(() => { if (socket === current) join({}); }, later(m.retryAfter));
            }
            break;
          case 'room': {
            if (!pages || pages.seq !== m.seq) pages = { seq: m.seq, parts: m.parts || 1, got: new Map() };
            pages.got.set(m.part || 1, m.questions);
            if (pages.got.size < pages.parts) return;
            const before = new Map(questions);
            questions.clear(); numbers.clear(); voted = new Set();
            seq = m.seq; epoch = m.epoch || null; highlighted = m.highlighted || null; gapAt = null;
            banner(m.announcement);
            setLabels(m.labels || []);
            nextUp = m.nextUp && m.nextUp.shown && Array.isArray(m.nextUp.ids) ? m.nextUp.ids.slice(0, 50) : [];
            for (const page of pages.got.values()) {
              for (const q of page) {
                if ((before.get(q.id) || {}).mine) q.mine = true;
                learn(q, false);
                if (q.voted) voted.add(q.id);
              }
            }
            pages = null;
            render();
            break;
          }
          case 'roomOwn':
            if (m.seq !== seq) return;
            for (const q of m.questions) { q.mine = true; learn(q, false); }
            for (const n of m.voted || []) { const id = numbers.get(n); if (id) voted.add(id); }
            render();
            break;
          case 'roomDelta': delta(m); break;
          case 'session':
            // Extension sessionState: closed, reopened or deleted by the presenter.
            if (m.deleted === true) {
              gone = true;
              closed(true);
              body.dataset.live = 'false';
              say(word('The presenter deleted this session.'));
              $('notice').textContent = word('The presenter deleted this session.');
            } else {
              closed(m.session && m.session.open === false);
              if (m.session && m.session.open) $('notice').textContent = word('The presenter reopened this session: it takes questions again.');
            }
            break;
          case 'resumed': {
            // Questions the server no longer has (a restored database): asked again, first, under
            // the tokens they were typed with, so that the server stores each once.
            const missing = new Set(m.missing || []);
            const lost = kept.filter((q) => missing.has(q.id));
            if (!lost.length) return;
            kept = kept.filter((q) => !missing.has(q.id));
            for (const q of lost) mine.delete(q.id);
            outbox = [...lost.map(({ token, content }) => ({ token, content })), ...outbox];
            save('kept', kept); saveOutbox();
            render(); pump();
            break;
          }
          case 'questionResponse': response(m); break;
          case 'questionAnswer': {
            const q = questions.get(m.questionId);
            if (!q) return;
            const copy = { ...q, answered: true };
            if (m.text) { copy.answer = m.text; copy.private = !!m.private; }
            learn(copy, true);
            render();
            break;
          }
          case 'voteResponse': {
            const intent = votes[m.question];
            if (!intent || intent.token !== m.token) return;
            if (!m.success && m.retryAfter) {
              intent.sent = false;
              intent.waitUntil = Date.now() + later(m.retryAfter);
              sendVotes();
            } else {
              takenOut.add(intent.token);
              delete votes[m.question];
              if (m.success) {
                if (m.voted) voted.add(m.question); else voted.delete(m.question);
                const q = questions.get(m.question);
                if (q && Number.isInteger(m.seq) && m.seq >= seq) q.votes = m.votes;
              } else {
                announce(printable(m.message || ''));
              }
            }
            saveVotes();
            render();
            break;
          }
        }
      }

      function delta(m) {
        if (seq === null || m.to <= seq) return;
        if (m.from > seq + 1) {
          // A gap: join again from what this page has; nothing past it applies until the
          // catch-up comes (asked again after 5 s).
          if (gapAt === null || Date.now() - gapAt > 5000) { gapAt = Date.now(); join({ since: seq, epoch }); }
          return;
        }
        gapAt = null;
        for (const q of m.questions || []) learn(q, true);
        applyCounts(m.counts, questions, numbers);
        for (const id of m.removed || []) {
          const q = questions.get(id);
          if (q && mine.has(id)) q.state = 'dismissed'; else questions.delete(id);
        }
        if (m.highlight) {
          const now = m.highlight.id || null;
          if (now && now !== highlighted && questions.get(now)) {
            announce(`${word('Now answering:')} ${printable(questions.get(now).content)}`);
          }
          highlighted = now;
        }
        if (m.announcement) banner(m.announcement);
        if (m.labels) setLabels(m.labels);
        if (m.nextUp) nextUp = m.nextUp.shown && Array.isArray(m.nextUp.ids) ? m.nextUp.ids.slice(0, 50) : [];
        if ((m.part || 1) === (m.parts || 1)) seq = m.to;
        render();
      }

      function response(m) {
        // Without tokens (a server without extensions) the one question in flight is the one
        // answered: there is never more than one.
        const token = has('token') ? m.token : (m.token || inFlight);
        if (token && token === inFlight) inFlight = null;
        const index = outbox.findIndex((q) => q.token === token);
        if (m.success && m.id) {
          const typed = index >= 0 ? outbox[index] : null;
          if (typed) { outbox.splice(index, 1); takenOut.add(typed.token); remember(m.id, typed.token, typed.content); }
          if (mine.has(m.id)) own(m);
        } else if (index >= 0) {
          if (m.retryAfter) outbox[index].waitUntil = Date.now() + later(m.retryAfter);
          else outbox[index].failed = printable(m.message || '');
        }
        saveOutbox();
        render();
        pump();
      }

      // One of my questions as the server restates it (a response, a resume's, the sender's).
      function own(m) {
        const base = questions.get(m.id) || { id: m.id, content: m.content, votes: 0, createdAt: m.createdAt };
        const copy = { ...base, mine: true, answered: !!m.answered };
        if (m.state) copy.state = m.state;
        if (m.answer) { copy.answer = m.answer; copy.private = !!m.private; }
        learn(copy, !!questions.get(m.id));
      }

      function closed(isClosed) {
        for (const element of $('ask').elements) element.disabled = isClosed;
        if (isClosed) $('notice').textContent = word('This session is closed: it takes no new questions.');
      }
    """#
}
