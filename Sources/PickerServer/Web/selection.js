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
   * Adds `ids` (in the given order) to the picks in one request. When they would go over the
   * maximum, only one more than fits is sent: the server refuses that with its own message and
   * nothing changes.
   */
  addAll(ids) {
    return this.enqueue(() => this.replaceAdding(ids));
  }

  async replaceAdding(ids) {
    const next = [...this.ids];
    const seen = new Set(next);
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      next.push(id);
      if (next.length > this.maxItems) break;
    }
    if (next.length === this.ids.length) return;
    this.apply(await api.replaceSelection(next));
  }
}
