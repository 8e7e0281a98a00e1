/// What the attendee page's script shows, and what the attendee's clicks and keys do.
extension AttendeeScript {
  static let view = #"""
      const intended = (id) => (votes[id] ? votes[id].up : voted.has(id));
      // While a vote is on its way the room's count may or may not have it yet: the count shown
      // is the one the click made, until the server answers.
      const shownVotes = (q) => (votes[q.id] && Number.isInteger(votes[q.id].shown) ? votes[q.id].shown : q.votes);
      const isMine = (q) => mine.has(q.id) || q.mine;

      function paragraph(className, text) {
        const p = document.createElement('p');
        p.className = className;
        p.textContent = text;
        return p;
      }

      function answerOf(q) {
        return q.answer
          ? [paragraph('answer', `${word(q.private ? 'Answered privately:' : 'Answer:')} ${printable(q.answer)}`)]
          : [];
      }

      function item(q) {
        const li = document.createElement('li');
        li.dataset.id = q.id;
        li.className = stateOf(q) + (q.id === highlighted ? ' now' : '');
        li.append(paragraph('text', printable(q.content)), ...answerOf(q));
        const meta = document.createElement('p');
        meta.className = 'meta';
        const count = shownVotes(q);
        if (has('room') && !isMine(q) && (!q.answered || intended(q.id))) {
          const button = document.createElement('button');
          button.type = 'button';
          button.className = 'vote';
          button.dataset.vote = q.id;
          button.setAttribute('aria-pressed', String(intended(q.id)));
          button.setAttribute('aria-label', `${word(intended(q.id) ? 'Take back your vote' : 'Vote')} (${word('Votes')}: ${count})`);
          button.textContent = `▲ ${count}`;
          meta.append(button);
        } else {
          const span = document.createElement('span');
          span.className = 'votes';
          span.textContent = `▲ ${count}`;
          span.setAttribute('aria-label', `${word('Votes')}: ${count}`);
          meta.append(span);
        }
        const when = new Date((since2001 + q.createdAt) * 1000);
        meta.append(' ' + when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
        if (isMine(q)) meta.append(` · ${word('yours')}`);
        if (q.edited === true) meta.append(` · ${word('edited by the presenter')}`);
        if (nextUp.includes(q.id)) meta.append(` · ${word('next up')} ${nextUp.indexOf(q.id) + 1}`);
        if (typeof q.label === 'string' && q.label) {
          const label = document.createElement('span');
          label.className = 'label';
          label.textContent = shortLabel(q.label);
          meta.append(' · ', label);
        }
        li.append(meta);
        return li;
      }

      function mineItem(label, content, extra) {
        const li = document.createElement('li');
        li.append(paragraph('text', printable(content)), paragraph('meta', label), ...extra);
        return li;
      }

      function button(text, data, value) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = text;
        b.dataset[data] = value;
        return b;
      }

      function render() {
        // Focus follows its button across the re-render (screen readers keep their place).
        const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset : {};
        const focus = ['vote', 'retry', 'discard'].find((name) => active[name]);
        // Until the room comes, what the server wrote stays.
        if (seq !== null) {
          const now = highlighted && questions.get(highlighted);
          $('now').hidden = !now;
          $('now-text').textContent = now ? printable(now.content) : '';
          const shown = [...questions.values()]
            .filter((q) => ['live', 'answered'].includes(stateOf(q)))
            .filter((q) => !filter || q.content.toLowerCase().includes(filter))
            .filter((q) => !labelFilter || q.label === labelFilter)
            .sort((a, b) => sort === 'votes'
              ? (shownVotes(b) - shownVotes(a)) || (a.createdAt - b.createdAt)
              : (b.createdAt - a.createdAt));
          const empty = document.createElement('li');
          empty.className = 'empty';
          empty.textContent = word('No questions yet.');
          $('questions').replaceChildren(...(shown.length ? shown.map(item) : [empty]));
        }
        const stateWords = { review: 'In review', live: 'Live in the room', answered: 'Answered', dismissed: 'Dismissed' };
        const own = [...questions.values()].filter(isMine)
          .sort((a, b) => b.createdAt - a.createdAt)
          .map((q) => mineItem(word(stateWords[stateOf(q)] || 'Sent'), q.content, answerOf(q)));
        const waiting = outbox.map((q) => q.failed
          ? mineItem(`${word('Not sent:')} ${q.failed}`, q.content,
            [button(word('Try again'), 'retry', q.token), button(word('Discard'), 'discard', q.token)])
          : mineItem(word('Waiting to send'), q.content, []));
        $('mine-list').replaceChildren(...waiting, ...own);
        $('mine').hidden = waiting.length + own.length === 0;
        if (focus) {
          const again = document.querySelector(`button[data-${focus}="${CSS.escape(active[focus])}"]`);
          if (again) again.focus();
        }
      }

      $('ask').addEventListener('submit', (event) => {
        event.preventDefault();
        const content = $('question').value.trim();
        if (!content) return;
        outbox.push({ token: uuid(), content, label: $('label').value || undefined });
        saveOutbox();
        $('question').value = '';
        $('notice').textContent = '';
        render();
        pump();
      });
      $('name').value = $('name').value || load('name', '');
      $('name').addEventListener('change', () => {
        save('name', $('name').value.trim());
        // The same attendee, named now: the server records it from the join.
        if (joined && has('room')) join(seq !== null && epoch ? { since: seq, epoch } : {});
      });
      $('questions').addEventListener('click', (event) => {
        const target = event.target.closest('button');
        const id = target && target.dataset.vote;
        const q = id && questions.get(id);
        if (!q) return;
        const up = !intended(id);
        const base = votes[id] && Number.isInteger(votes[id].shown) ? votes[id].shown : q.votes;
        votes[id] = { up, token: uuid(), shown: Math.max(0, base + (up ? 1 : -1)), at: Date.now() };
        saveVotes();
        render();
        sendVotes();
      });
      $('mine-list').addEventListener('click', (event) => {
        const { retry: again, discard } = event.target.dataset;
        const q = outbox.find((q) => q.token === (again || discard));
        if (!q) return;
        if (again) delete q.failed; else { outbox.splice(outbox.indexOf(q), 1); takenOut.add(q.token); }
        saveOutbox();
        render();
        pump();
      });
      $('sort').addEventListener('change', (e) => { sort = e.target.value; render(); });
      $('search').addEventListener('input', (e) => { filter = e.target.value.toLowerCase(); render(); });
      $('label-filter').addEventListener('change', (e) => { labelFilter = e.target.value; render(); });
      window.addEventListener('online', () => { retry = 500; connect(); });
      // Another tab of this room changed what waits: take its outbox and votes as they are now,
      // each with what this tab knows of it (sent on this connection, told to wait), so that
      // the sender does not send again what it has sent.
      window.addEventListener('storage', (event) => {
        if (event.key === key('outbox')) {
          const before = new Map(outbox.map((q) => [q.token, q]));
          outbox = load('outbox', []);
          for (const q of outbox) if (before.has(q.token)) q.waitUntil = before.get(q.token).waitUntil;
          render(); pump();
        }
        if (event.key === key('votes')) {
          const before = votes;
          votes = load('votes', {});
          for (const [id, intent] of Object.entries(votes)) {
            const old = before[id];
            if (old && old.token === intent.token) Object.assign(intent, { sent: old.sent, waitUntil: old.waitUntil });
          }
          render(); sendVotes();
        }
        // The sender's questions are this tab's too.
        if (event.key === key('kept')) {
          kept = load('kept', []);
          for (const q of kept) mine.add(q.id);
          render();
        }
        if (event.key === key('heard') && event.newValue) {
          let m = null;
          try { m = JSON.parse(event.newValue).m; } catch {}
          heard(m);
        }
        if (!locks && event.key === key('sender') && joined) seek();
      });
      say(word('Loading…'));
      render();
      connect();
    })();
    """#
}
