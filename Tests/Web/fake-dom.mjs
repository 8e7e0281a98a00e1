// A small stand-in for the browser's DOM, enough for the pages' modules to draw into: elements
// with children, text, classes, attributes, `dataset`, listeners, and selectors of compound
// parts (`tag.class[data-x="v"]:checked`), each under the one before it (`.a .b`). Setting `innerHTML` throws: the pages
// make everything from text, never markup, and a test would catch one that did not.

class Text {
  constructor(data) { this.data = String(data); this.parentNode = null; }
  get textContent() { return this.data; }
  remove() { if (this.parentNode) this.parentNode.removeChild(this); }
}

// `data-poll-id` is `dataset.pollId`.
const datasetName = (attribute) => attribute.slice(5).replace(/-([a-z])/g, (_m, c) => c.toUpperCase());

// A selector of one compound part: its tag, classes, attributes and `:checked`.
const parse = (selector) => {
  const part = { tag: null, classes: [], attributes: [], checked: false };
  const pattern = /^([a-zA-Z][\w-]*)|\.([\w-]+)|\[([\w-]+)(?:="((?:[^"\\]|\\.)*)")?\]|(:checked)/y;
  let at = 0;
  while (at < selector.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(selector);
    if (!m || (m[1] && at > 0)) throw new Error(`fake-dom: no selector ${selector}`);
    if (m[1]) part.tag = m[1].toUpperCase();
    if (m[2]) part.classes.push(m[2]);
    if (m[3]) part.attributes.push([m[3], m[4] === undefined ? null : m[4].replace(/\\(.)/g, '$1')]);
    if (m[5]) part.checked = true;
    at = pattern.lastIndex;
  }
  return part;
};

export class Element {
  constructor(tag, document) {
    this.tagName = tag.toUpperCase();
    this.ownerDocument = document;
    this.childNodes = [];
    this.parentNode = null;
    this.dataset = {};
    this.attributes = new Map();
    this.listeners = new Map();
    this.className = '';
    this.hidden = false;
    this.style = {};
    this.id = '';
  }

  get children() { return this.childNodes.filter((n) => n instanceof Element); }
  get firstElementChild() { return this.children[0] || null; }
  get lastElementChild() { return this.children.at(-1) || null; }

  get textContent() { return this.childNodes.map((n) => n.textContent).join(''); }
  set textContent(value) { this.replaceChildren(...(String(value ?? '') ? [String(value)] : [])); }
  set innerHTML(_markup) { throw new Error('fake-dom: markup set as innerHTML'); }
  get innerHTML() { throw new Error('fake-dom: innerHTML read'); }

  get classList() {
    const names = () => this.className.split(/\s+/).filter((c) => c);
    const set = (list) => { this.className = list.join(' '); };
    return {
      contains: (c) => names().includes(c),
      add: (...cs) => set([...new Set([...names(), ...cs])]),
      remove: (...cs) => set(names().filter((c) => !cs.includes(c))),
      toggle: (c, on = !names().includes(c)) => { set(on ? [...new Set([...names(), c])] : names().filter((n) => n !== c)); return on; },
    };
  }

  append(...nodes) {
    for (const node of nodes) {
      const child = node instanceof Element || node instanceof Text ? node : new Text(node);
      if (child.parentNode) child.parentNode.removeChild(child);
      child.parentNode = this;
      this.childNodes.push(child);
    }
  }

  replaceChildren(...nodes) {
    for (const child of this.childNodes) this.detach(child);
    this.childNodes = [];
    this.append(...nodes);
  }

  removeChild(child) {
    this.childNodes = this.childNodes.filter((n) => n !== child);
    this.detach(child);
    return child;
  }

  // As a browser does: the focus, taken out of the page with its element, goes to the body.
  detach(child) {
    child.parentNode = null;
    const document = this.ownerDocument;
    if (child instanceof Element && child.contains(document.activeElement)) document.activeElement = document.body;
  }

  replaceChild(fresh, old) {
    if (fresh.parentNode) fresh.parentNode.removeChild(fresh);
    const at = this.childNodes.indexOf(old);
    this.childNodes[at] = fresh;
    fresh.parentNode = this;
    this.detach(old);
    return old;
  }

  insertBefore(node, before) {
    if (node.parentNode) node.parentNode.removeChild(node);
    const at = before ? this.childNodes.indexOf(before) : -1;
    if (at < 0) this.childNodes.push(node); else this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }

  remove() { if (this.parentNode) this.parentNode.removeChild(this); }

  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }

  setAttribute(name, value) {
    if (name.startsWith('data-')) this.dataset[datasetName(name)] = String(value);
    else if (name === 'class') this.className = String(value);
    else this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    if (name.startsWith('data-')) return this.dataset[datasetName(name)] ?? null;
    if (name === 'class') return this.className;
    if (name === 'id') return this.id || null;
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  hasAttribute(name) { return this.getAttribute(name) !== null; }
  removeAttribute(name) { this.attributes.delete(name); }

  /** Whether it matches `selector`'s last part, and its ancestors the ones before, in order. */
  matches(selector) {
    const parts = selector.trim().match(/(?:[^\s"[]|\[[^\]]*\])+/g) || [];
    if (!this.matchesPart(parts.pop() || '')) return false;
    let n = this.parentNode;
    while (parts.length && n instanceof Element) {
      if (n.matchesPart(parts.at(-1))) parts.pop();
      n = n.parentNode;
    }
    return parts.length === 0;
  }

  matchesPart(selector) {
    const part = parse(selector);
    return (!part.tag || part.tag === this.tagName) && part.classes.every((c) => this.classList.contains(c))
      && part.attributes.every(([name, value]) => (value === null ? this.hasAttribute(name) : this.getAttribute(name) === value))
      && (!part.checked || this.checked === true);
  }

  /** Every element under this one, in document order. */
  get descendants() { return this.children.flatMap((c) => [c, ...c.descendants]); }
  querySelectorAll(selector) { return this.descendants.filter((e) => e.matches(selector)); }
  querySelector(selector) { return this.descendants.find((e) => e.matches(selector)) || null; }

  closest(selector) {
    for (let n = this; n instanceof Element; n = n.parentNode) if (n.matches(selector)) return n;
    return null;
  }

  addEventListener(type, listener) {
    this.listeners.set(type, [...(this.listeners.get(type) || []), listener]);
  }

  /** An event of `type` from `target` (this element or one under it), heard here and above. */
  dispatch(type, target = this) {
    const event = { type, target, preventDefault() {} };
    for (let n = this; n instanceof Element; n = n.parentNode) {
      for (const listener of n.listeners.get(type) || []) listener(event);
    }
    return event;
  }

  focus() { this.ownerDocument.activeElement = this; }
  scrollIntoView() {}
}

/** A document on globalThis (and CSS.escape), for modules that draw; returns it. */
export function installDocument() {
  const document = {
    activeElement: null,
    createElement: (tag) => new Element(tag, document),
    get body() { return document.bodyElement; },
  };
  document.bodyElement = new Element('body', document);
  globalThis.document = document;
  globalThis.CSS = globalThis.CSS || { escape: (text) => String(text).replace(/["\\]/g, '\\$&') };
  return document;
}

/** Every <script> element of `root`, itself included (a page's drawing makes none). */
export const markupIn = (root) => [root, ...root.descendants].filter((e) => e.tagName === 'SCRIPT');
