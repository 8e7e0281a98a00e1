// Which of a room's tabs sends what waits. Every tab of a room shares its storage, so each
// would send every question and vote left there; one at a time does (a token makes a second
// send harmless, but it is still a second send and a second answer).
// With Web Locks, the sender is the tab holding the room's lock, asked for while its socket
// is joined and let go when the socket or the tab closes: a tab that can send takes over.
// Without them (a page on plain http:// is no secure context), a lease in the storage,
// renewed every LEASE_RENEW ms and free after LEASE_EXPIRY or when its tab lets it go; two
// senders for a moment cost a resend, no more. Nothing goes with a sender: what waits stays
// in the storage until the server has answered it. The locks, the storage and the clock come
// from `environment`, so that Tests/Web drives it without a browser.
import { uuid } from './common.js';

export const LEASE_RENEW = 2000;
export const LEASE_EXPIRY = 6000;

export class TabSender {
  /**
   * `name`: the room's lock, and the storage key of its lease. Told `became()` when this tab
   * starts sending and `resigned()` when it stops (or stays a listener).
   */
  constructor({ name, became = () => {}, resigned = () => {}, environment = {} }) {
    this.name = name;
    this.became = became;
    this.resigned = resigned;
    const locks = globalThis.navigator && globalThis.navigator.locks;
    this.env = {
      locks: locks && typeof locks.request === 'function' ? locks : null,
      storage: globalThis.localStorage || null,
      now: Date.now,
      tab: uuid(),
      ...environment,
    };
    this.isSender = false;
    /** Whether the socket is joined: only then may this tab send. */
    this.active = false;
    this.release = null;
    this.waiting = null;
  }

  /** Whether the election is a lease in the storage (no Web Locks): it needs renewing. */
  get usesLease() { return !this.env.locks; }

  /** The socket is joined: this tab stands. */
  join() {
    this.active = true;
    this.seek();
  }

  /** The socket closed, or the tab goes: this tab stands down and lets the others take over. */
  leave() {
    this.active = false;
    this.quit();
  }

  /** Every LEASE_RENEW ms, and when another tab's lease changes: a lease is renewed or taken. */
  renew() {
    if (this.active && this.usesLease) this.seek();
  }

  seek() {
    if (!this.active) return this.quit();
    const { locks } = this.env;
    if (locks) {
      if (this.release || this.waiting) return undefined;
      const asked = this.waiting = new AbortController();
      locks.request(this.name, { signal: asked.signal }, () => {
        // Granted after this tab gave up asking: let it go at once.
        if (this.waiting !== asked || !this.active) return undefined;
        this.waiting = null;
        return new Promise((done) => { this.release = done; this.become(); });
      }).catch(() => {});
      return undefined;
    }
    const held = this.lease();
    if (held && held.tab !== this.env.tab && this.env.now() - held.at < LEASE_EXPIRY) return this.resign();
    this.write({ tab: this.env.tab, at: this.env.now() });
    return this.become();
  }

  quit() {
    if (this.waiting) { this.waiting.abort(); this.waiting = null; }
    if (this.release) { this.release(); this.release = null; }
    if (this.usesLease && (this.lease() || {}).tab === this.env.tab) this.write(null);
    this.resign();
  }

  become() {
    if (this.isSender) return;
    this.isSender = true;
    this.became();
  }

  resign() {
    this.isSender = false;
    this.resigned();
  }

  lease() {
    try {
      const held = JSON.parse(this.env.storage.getItem(this.name) || 'null');
      return held && typeof held.tab === 'string' && Number.isFinite(held.at) ? held : null;
    } catch {
      return null;
    }
  }

  write(lease) {
    try {
      if (lease) this.env.storage.setItem(this.name, JSON.stringify(lease));
      else this.env.storage.removeItem(this.name);
    } catch {}
  }
}
