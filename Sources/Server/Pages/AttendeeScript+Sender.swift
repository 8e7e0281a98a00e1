/// Which of a room's tabs sends what waits. Every tab of a room shares its storage, so each
/// would send every question and vote left there; one at a time does (a token makes a
/// second send harmless, but it is still a second send and a second answer).
extension AttendeeScript {
  static let sender = #"""
      // With Web Locks, the sender is the tab holding the room's lock, asked for while its
      // socket is joined and let go when the socket or the tab closes: a tab that can send
      // takes over. Without them (a page on plain http:// is no secure context), a lease in
      // the storage, renewed every 2 s and free after 6 s or when its tab lets it go; two
      // senders for a moment cost a resend, no more. Nothing goes with a sender: what waits
      // stays in the storage until the server has answered it.
      const locks = navigator.locks && typeof navigator.locks.request === 'function' ? navigator.locks : null;
      const tab = uuid();
      let release = null, waiting = null;
      body.dataset.sender = 'false';

      function become() {
        if (sender) return;
        sender = true;
        body.dataset.sender = 'true';
        // What waits, as the other tabs left it.
        outbox = load('outbox', []);
        votes = load('votes', {});
        render();
        pump();
        sendVotes();
      }
      function resign() {
        sender = false;
        body.dataset.sender = 'false';
      }
      // When the socket is joined; for a lease also every 2 s, and when another tab's changes.
      function seek() {
        if (!joined) return quit();
        if (locks) {
          if (release || waiting) return;
          const asked = waiting = new AbortController();
          locks.request(key('sender'), { signal: asked.signal }, () => {
            // Granted after this tab gave up asking: let it go at once.
            if (waiting !== asked || !joined) return undefined;
            waiting = null;
            return new Promise((done) => { release = done; become(); });
          }).catch(() => {});
          return;
        }
        const held = load('sender', null);
        if (held && held.tab !== tab && Date.now() - held.at < 6000) return resign();
        save('sender', { tab, at: Date.now() });
        become();
      }
      function quit() {
        if (waiting) { waiting.abort(); waiting = null; }
        if (release) { release(); release = null; }
        if (!locks && (load('sender', null) || {}).tab === tab) {
          try { localStorage.removeItem(key('sender')); } catch {}
        }
        resign();
      }
      // What the server told the sender of what it sent, for the other tabs: each write is
      // news to them, and it is removed at once (the storage keeps none of it).
      function relay(m) {
        try {
          localStorage.setItem(key('heard'), JSON.stringify({ m, n: uuid() }));
          localStorage.removeItem(key('heard'));
        } catch {}
      }
      // In a tab that does not send: what the sender heard, shown here as there.
      function heard(m) {
        if (!m || sender) return;
        if (m.type === 'questionAnswer') { receive(m); return; }
        if (m.type === 'questionResponse' && m.success && m.id && mine.has(m.id)) own(m);
        if (m.type === 'voteResponse' && m.success) {
          if (m.voted) voted.add(m.question); else voted.delete(m.question);
        }
        render();
      }
      if (!locks) {
        setInterval(() => { if (joined) seek(); }, 2000);
        window.addEventListener('pagehide', quit);
      }

    """#
}
