// The person's picks as the server keeps them. Every change goes to the server, which answers
// with the whole selection (or refuses it: 409 when the maximum is reached); the page only
// shows what the server answered.

import * as api from "./api.js";

export class Selection {
  /** @param {{ids: string[], count: number, byteSize: number}} initial  @param {number} maxItems  @param {"pick"|"date"} order */
  constructor(initial, maxItems, order) {
    this.maxItems = maxItems;
    this.order = order;
    this.listeners = new Set();
    // Changes run one after another: each decides from the selection the previous one left
    // (two quick clicks on a cell pick and then unpick it).
    this.queue = Promise.resolve();
    this.apply(initial);
  }

  /** Takes the server's selection and tells the listeners. */
  apply(selection) {
    this.ids = selection.ids;
    this.byteSize = selection.byteSize;
    // id → 1-based pick number.
    this.positions = new Map(selection.ids.map((id, index) => [id, index + 1]));
    for (const listener of this.listeners) listener(this);
  }

  onChange(listener) {
    this.listeners.add(listener);
  }

  get count() {
    return this.ids.length;
  }

  has(id) {
    return this.positions.has(id);
  }

  /** What a selected cell shows: its pick number (order "pick") or a check mark (order "date"). */
  badge(id) {
    const position = this.positions.get(id);
    if (position === undefined) return null;
    return this.order === "pick" ? String(position) : "✓";
  }

  /** Picks or unpicks one asset. Throws the server's refusal (ApiError) unchanged. */
  toggle(id) {
    return this.enqueue(async () => this.apply(await (this.has(id) ? api.unpick(id) : api.pick(id))));
  }

  /** Runs `change` after the changes before it, whether they succeeded or not. */
  enqueue(change) {
    const result = this.queue.then(change);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Makes the picks hold the assets of `range` (a range selection, see Grid.extendRange) in one
   * request: `range.ids()` resolves to the assets from the anchor to the range's current end, in
   * that direction. The picks the range made before and that fall out of it go; the ones still in
   * it keep their pick numbers; new ones follow in the range's direction; picks made before the
   * range began stay. `range.added` (the picks the range made) is updated once the server
   * agreed. When the picks would go over the maximum, only one more than fits is sent: the
   * server refuses that with its own message and nothing changes.
   */
  selectRange(range) {
    return this.enqueue(async () => {
      const ids = await range.ids();
      const wanted = new Set(ids);
      const next = this.ids.filter((id) => wanted.has(id) || !range.added.has(id));
      const present = new Set(next);
      const added = new Set([...range.added].filter((id) => present.has(id)));
      for (const id of ids) {
        if (present.has(id)) continue;
        if (next.length > this.maxItems) break;
        present.add(id);
        added.add(id);
        next.push(id);
      }
      if (next.length === this.ids.length && next.every((id, index) => id === this.ids[index])) {
        range.added = added;
        return;
      }
      this.apply(await api.replaceSelection(next));
      range.added = added;
    });
  }
}
