// Who this browser is in a room (extension identity): the attendee id it joins as and the
// credential the server issued for it, kept in the browser's storage across reloads, given
// in every join and replaced by what a `joined` names (the server may give a new id when the
// one sent was another's). Each page says where it keeps them (`load`, `save`) and which id
// a browser new to the room starts with.
import { uuid } from './common.js';

const isId = (value) => typeof value === 'string' && value.length > 0 && value.length <= 64;

export class RoomIdentity {
  /** `first()`: the id of a browser with none kept yet (a fresh UUID by default). */
  constructor({ load, save, first = uuid }) {
    this.save = save;
    const kept = load('attendee');
    this.attendee = isId(kept) ? kept : first();
    const credential = load('credential');
    this.credential = isId(credential) ? credential : null;
    save('attendee', this.attendee);
  }

  /** The identity's fields of a join. */
  fields() {
    return this.credential ? { attendee: this.attendee, credential: this.credential } : { attendee: this.attendee };
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
