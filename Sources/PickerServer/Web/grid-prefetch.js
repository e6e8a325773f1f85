// Asks the server to render the thumbnails of the rows about to come into view, in the
// direction of scrolling (PhotoKit's startCaching).

import * as api from "./api.js";
import { OVERSCAN_ROWS } from "./grid-layout.js";

const PREFETCH_SCREENS = 1.5; // how far ahead the server is asked to render
const PREFETCH_DELAY_MS = 120;

export class Prefetcher {
  /** @param {import("./grid.js").Grid} grid */
  constructor(grid) {
    this.grid = grid;
    this.prefetched = new Set(); // asset ids already asked for at the current size
    this.timer = 0;
    this.lastScrollTop = 0;
  }

  /** Forgets what was asked for (a new album, a new cell size). */
  clear() {
    this.prefetched.clear();
  }

  /** Debounced: a fling asks only where it settles. */
  schedule(firstVisible, lastVisible) {
    const grid = this.grid;
    const top = grid.element.scrollTop;
    const down = top >= this.lastScrollTop;
    this.lastScrollTop = top;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const screen = lastVisible - firstVisible + 1;
      const ahead = Math.ceil(screen * PREFETCH_SCREENS);
      const from = down ? lastVisible + OVERSCAN_ROWS + 1 : Math.max(0, firstVisible - OVERSCAN_ROWS - ahead);
      const to = down ? Math.min(grid.rowCount - 1, lastVisible + OVERSCAN_ROWS + ahead) : firstVisible - OVERSCAN_ROWS - 1;
      if (to < from) return;
      const firstIndex = from * grid.columns;
      const lastIndex = Math.min(grid.total - 1, (to + 1) * grid.columns - 1);
      grid.source.loadRange(firstIndex, lastIndex).then(() => {
        const ids = [];
        for (let index = firstIndex; index <= lastIndex; index += 1) {
          const item = grid.source.item(index);
          if (item && !this.prefetched.has(item.id)) ids.push(item.id);
        }
        if (ids.length === 0) return;
        if (this.prefetched.size > 20000) this.prefetched.clear();
        for (const id of ids) this.prefetched.add(id);
        const px = grid.thumbPixels;
        return api.prefetch(ids, { w: px, h: px, mode: "fill" });
      }).catch(() => undefined); // prefetch is a hint: a failure costs only speed
    }, PREFETCH_DELAY_MS);
  }
}
