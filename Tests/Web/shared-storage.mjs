// What the Web tests share (not a test file itself): one room's storage, shared by the tabs
// made on it, as localStorage is.

/** `load` and `save` as the pages' modules take them, over one map (`items`). */
export const storage = () => {
  const items = new Map();
  return {
    items,
    load: (name, fallback) => (items.has(name) ? JSON.parse(items.get(name)) : fallback),
    save: (name, value) => items.set(name, JSON.stringify(value)),
  };
};
