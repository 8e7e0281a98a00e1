// Who this browser is in a room (extension identity): the attendee id it joins as and the
// credential the server issued for it, kept in the browser's storage across reloads, given
// in every join and replaced by what a `joined` names (the server may give a new id when the
// one sent was another's). Each page says where it keeps them (`load`, `save`) and which id
// a browser new to the room starts with. A personal ticket (extension tickets), from the
// page's address, is kept too, and given in a join until the server has named an identity.
import { uuid } from './common.js';

const isId = (value) => typeof value === 'string' && value.length > 0 && value.length <= 64;
/** The join code's alphabet: no 0, 1, I or O. */
const TICKET = /^[A-HJ-NP-Z2-9]{16}$/;

/** A ticket as typed or linked, canonical (upper case, no dashes or spaces); null if none. */
export function canonicalTicket(typed) {
  if (typeof typed !== 'string' || typed.length > 64) return null;
  const ticket = typed.toUpperCase().replace(/[- ]/g, '');
  return TICKET.test(ticket) ? ticket : null;
}

/** The ticket in an address's fragment (`#ticket=…`, among `&`-separated fields), or null. */
export function ticketInFragment(hash) {
  if (typeof hash !== 'string') return null;
  for (const field of hash.replace(/^#/, '').split('&')) {
    const [name, value] = field.split('=');
    // Not URI-decoded: a ticket has nothing to escape, and a malformed escape must not throw.
    if (name === 'ticket') return canonicalTicket(value || '');
  }
  return null;
}

export class RoomIdentity {
  /**
   * `first()`: the id of a browser with none kept yet (a fresh UUID by default); `ticket`:
   * one the page was opened with, kept in place of any kept before.
   */
  constructor({ load, save, first = uuid, ticket = null }) {
    this.save = save;
    const kept = load('attendee');
    this.attendee = isId(kept) ? kept : first();
    const credential = load('credential');
    this.credential = isId(credential) ? credential : null;
    this.ticket = canonicalTicket(ticket) || canonicalTicket(load('ticket'));
    save('attendee', this.attendee);
    if (this.ticket) save('ticket', this.ticket);
  }

  /** A ticket given later (a link opened on the page already open): true when it is one. */
  useTicket(typed) {
    const ticket = canonicalTicket(typed);
    if (!ticket) return false;
    this.ticket = ticket;
    this.save('ticket', ticket);
    return true;
  }

  /** The identity's fields of a join: the ticket only while the server has named none. */
  fields() {
    if (this.credential) return { attendee: this.attendee, credential: this.credential };
    return this.ticket ? { attendee: this.attendee, ticket: this.ticket } : { attendee: this.attendee };
  }

  /** A `joined` from the server: true when it named an identity, kept from now on. */
  took(m) {
    if (!m || !isId(m.attendee) || !isId(m.credential)) return false;
    this.attendee = m.attendee;
    this.credential = m.credential;
    this.save('attendee', this.attendee);
    this.save('credential', this.credential);
    return true;
  }
}
