// The virtualised grid: rows of a fixed height inside a sizer as tall as all rows; only the
// rows in the viewport (± a few) exist in the DOM, placed with transforms. Scrolling fetches
// the pages of assets it reaches and asks the server to prefetch the thumbnails of the rows
// about to come into view. Keyboard: roving tabindex over the cells.

import * as api from "./api.js";
import { makeCell, fillCell, markCell, labelCell, loadDeferred, cancelLoads } from "./cell.js";
import { gridOpening, awaitFirstScreen } from "./first-screen.js";
import { noteScroll, upgradeNow } from "./thumb-upgrade.js";

const GAP = 4; // between cells, and around the rows (room for the focus ring)
const MIN_CELL = 112; // CSS pixels
const OVERSCAN_ROWS = 3; // rows kept above and below the viewport
const PREFETCH_SCREENS = 1.5; // how far ahead the server is asked to render
const PREFETCH_DELAY_MS = 120;
const SETTLE_MS = 120; // after a jump, thumbnails start once scrolling rests this long

export class Grid {
  /**
   * @param {HTMLElement} element  #grid, the scrolling element
   * @param {{selection: import("./selection.js").Selection, onOpen: (index: number) => void,
   *          onBack: () => void, onError: (error: Error) => void}} options
   */
  constructor(element, { selection, onOpen, onBack, onError }) {
    this.element = element;
    this.selection = selection;
    this.onOpen = onOpen;
    this.onBack = onBack;
    this.onError = onError;
    this.sizer = document.createElement("div");
    this.sizer.className = "grid-sizer";
    this.sizer.setAttribute("role", "presentation");
    element.append(this.sizer);
    this.rowElements = new Map(); // row number → row element
    this.source = null;
    this.columns = 1;
    this.cellSize = MIN_CELL;
    this.rowHeight = MIN_CELL + GAP;
    this.width = 0;
    this.focus = 0; // index of the cell that takes Tab
    this.range = null; // the range selection in progress: {anchor, end, added, ids}
    this.savedScrollTop = 0;
    this.lastScrollTop = 0;
    this.prefetched = new Set();
    this.prefetchTimer = 0;
    this.settleTimer = 0;
    this.opening = false; // true while the first screen of an album renders
    this.awaitingFirstScreen = false; // the rows beyond the first screen hold their thumbnails until it is done
    this.renderedTop = null; // scrollTop at the last render; null after the rows were cleared
    this.frame = 0;

    element.addEventListener("scroll", () => {
      noteScroll();
      this.scheduleRender();
    }, { passive: true });
    element.addEventListener("click", (event) => this.click(event));
    element.addEventListener("dblclick", (event) => {
      const cell = event.target.closest(".cell[data-asset-id]");
      if (cell && !event.target.closest(".cell-open")) this.onOpen(Number(cell.dataset.index));
    });
    element.addEventListener("keydown", (event) => this.keydown(event));
    new ResizeObserver(() => this.resized()).observe(element);
    selection.onChange(() => this.markAll());
  }

  get total() {
    return this.source ? this.source.total : 0;
  }

  get rowCount() {
    return Math.ceil(this.total / this.columns);
  }

  /** Device pixels of a thumbnail: the cell's CSS size × devicePixelRatio. */
  get thumbPixels() {
    return Math.round(this.cellSize * (window.devicePixelRatio || 1));
  }

  /** Shows `source` from its start (a new album, sort or filter). */
  async open(source) {
    gridOpening();
    this.source = source;
    source.onPage = () => this.scheduleRender();
    this.clearRows();
    this.prefetched.clear();
    this.focus = 0;
    this.range = null;
    this.element.scrollTop = 0;
    this.savedScrollTop = 0;
    this.element.dataset.total = "0";
    try {
      await source.load(0);
    } catch (error) {
      this.onError(error);
      return;
    }
    if (this.source !== source) return;
    this.layout();
    // The whole first screen's items, so that its thumbnails all start at once.
    const { firstVisible, lastVisible } = this.visibleRows();
    await source.loadRange(0, Math.max(0, (lastVisible + 1) * this.columns - 1)).catch((error) => this.onError(error));
    if (this.source !== source) return;
    // The first screen takes the quickest thumbnails; every later row the final ones. The rows
    // kept beyond the viewport wait, so that the first screen has the connections to itself.
    this.opening = true;
    this.awaitingFirstScreen = true;
    this.render();
    this.opening = false;
    const images = [];
    for (let row = firstVisible; row <= lastVisible; row += 1) {
      for (const img of this.rowElements.get(row)?.querySelectorAll("img.thumb") ?? []) images.push(img);
    }
    this.afterFirstScreen(source, images);
  }

  /** Once the first screen's `images` are shown: the rows beyond it load, and it sharpens. */
  async afterFirstScreen(source, images) {
    const marked = await awaitFirstScreen(images);
    if (this.source !== source) return;
    this.awaitingFirstScreen = false;
    loadDeferred(this.sizer);
    if (marked) upgradeNow();
    const { firstVisible, lastVisible } = this.visibleRows();
    this.schedulePrefetch(firstVisible, lastVisible);
  }

  /** The library changed: fetch the window again where the person is. */
  async refresh() {
    if (!this.source) return;
    this.source.reset();
    const { first } = this.visibleRows();
    try {
      await this.source.load(first * this.columns);
    } catch (error) {
      this.onError(error);
      return;
    }
    const hadFocus = this.element.contains(document.activeElement);
    this.layout();
    this.clearRows();
    this.render();
    if (hadFocus) this.cell(this.focus)?.focus({ preventScroll: true });
  }

  /** The grid view is about to hide (the browser opens): remember the scroll position. */
  hide() {
    this.savedScrollTop = this.element.scrollTop;
  }

  /** The grid view shows again: restore the position, keep `index` in view and focus it. */
  show(index = this.focus) {
    this.element.scrollTop = this.savedScrollTop;
    this.layout();
    this.clearRows();
    this.moveFocus(index, { select: false });
  }

  /** Cells, rows and the sizer's height for the current width and total. */
  layout() {
    const width = this.element.clientWidth - 2 * GAP;
    if (width > 0) this.width = width;
    const columns = Math.max(3, Math.floor((this.width + GAP) / (MIN_CELL + GAP)));
    this.columns = columns;
    this.cellSize = Math.max(40, Math.floor((this.width - GAP * (columns - 1)) / columns));
    this.rowHeight = this.cellSize + GAP;
    this.sizer.style.height = `${this.rowCount * this.rowHeight + GAP}px`;
    this.element.dataset.total = String(this.total);
    this.element.setAttribute("aria-rowcount", String(this.rowCount));
    this.element.setAttribute("aria-colcount", String(columns));
  }

  resized() {
    const width = this.element.clientWidth - 2 * GAP;
    if (!this.source || width <= 0 || width === this.width) return;
    // Keep the first visible item in view across the new column count.
    const firstIndex = Math.floor(this.element.scrollTop / this.rowHeight) * this.columns;
    this.layout();
    this.prefetched.clear();
    this.clearRows();
    this.element.scrollTop = Math.floor(firstIndex / this.columns) * this.rowHeight;
    this.render();
  }

  visibleRows() {
    const top = this.element.scrollTop;
    const height = this.element.clientHeight || window.innerHeight;
    const last = Math.max(0, this.rowCount - 1);
    const firstVisible = Math.min(last, Math.floor(top / this.rowHeight));
    const lastVisible = Math.min(last, Math.floor((top + height - 1) / this.rowHeight));
    return {
      firstVisible, lastVisible,
      first: Math.max(0, firstVisible - OVERSCAN_ROWS),
      last: Math.min(last, lastVisible + OVERSCAN_ROWS),
    };
  }

  scheduleRender() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  clearRows() {
    for (const row of this.rowElements.values()) this.removeRow(row);
    this.rowElements.clear();
    // The next render starts afresh where the grid is: not a jump.
    this.renderedTop = null;
  }

  removeRow(row) {
    cancelLoads(row);
    row.remove();
  }

  /** Makes the DOM hold exactly the rows near the viewport (and the focused cell's row). */
  render() {
    if (!this.source) return;
    if (this.total === 0) {
      this.clearRows();
      this.layout();
      return;
    }
    const { first, last, firstVisible, lastVisible } = this.visibleRows();
    // A jump of more than a screen (a fling, a drag of the scrollbar) passes rows nobody sees:
    // their thumbnails wait until scrolling rests, so the server renders only where it stops.
    const top = this.element.scrollTop;
    const jumped = this.renderedTop !== null && Math.abs(top - this.renderedTop) > this.element.clientHeight;
    this.renderedTop = top;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      if (!this.awaitingFirstScreen) loadDeferred(this.sizer);
    }, SETTLE_MS);
    const focusRow = Math.floor(this.focus / this.columns);
    const keep = (row) => (row >= first && row <= last) || row === focusRow;
    for (const [row, element] of this.rowElements) {
      if (!keep(row) || row >= this.rowCount) {
        this.removeRow(element);
        this.rowElements.delete(row);
      }
    }
    const rows = [];
    for (let row = first; row <= last; row += 1) rows.push(row);
    if (focusRow < this.rowCount && (focusRow < first || focusRow > last)) rows.push(focusRow);
    for (const row of rows) {
      let element = this.rowElements.get(row);
      if (!element) {
        element = this.makeRow(row);
        this.rowElements.set(row, element);
        this.sizer.append(element);
      }
      const beyond = this.opening && (row < firstVisible || row > lastVisible);
      this.fillRow(element, { fast: jumped || this.opening, defer: jumped || beyond });
    }
    this.source.loadRange(first * this.columns, Math.min(this.total - 1, (last + 1) * this.columns - 1))
      .catch((error) => this.onError(error));
    // The server renders the first screen before it renders ahead.
    if (!this.awaitingFirstScreen) this.schedulePrefetch(firstVisible, lastVisible);
  }

  makeRow(row) {
    const element = document.createElement("div");
    element.className = "grid-row";
    element.setAttribute("role", "row");
    element.setAttribute("aria-rowindex", String(row + 1));
    element.style.transform = `translate(${GAP}px, ${row * this.rowHeight + GAP}px)`;
    element.style.height = `${this.cellSize}px`;
    element.style.gridTemplateColumns = `repeat(${this.columns}, ${this.cellSize}px)`;
    const end = Math.min(this.total, (row + 1) * this.columns);
    for (let index = row * this.columns; index < end; index += 1) element.append(makeCell(index));
    return element;
  }

  /** Fills the row's placeholders whose items have arrived; keeps the roving tabindex right. */
  fillRow(element, options) {
    const px = this.thumbPixels;
    for (const cell of element.children) {
      const index = Number(cell.dataset.index);
      cell.tabIndex = index === this.focus ? 0 : -1;
      if (!cell.classList.contains("placeholder")) continue;
      const item = this.source.item(index);
      if (!item) continue;
      fillCell(cell, item, px, options);
      cell.setAttribute("aria-colindex", String(index % this.columns + 1));
      markCell(cell, this.selection.badge(item.id));
    }
  }

  /** Selection changed: update the cells in the DOM. */
  markAll() {
    for (const cell of this.element.querySelectorAll(".cell[data-asset-id]")) {
      markCell(cell, this.selection.badge(cell.dataset.assetId));
    }
  }

  /** Language changed: re-label the cells in the DOM. */
  relabel() {
    for (const cell of this.element.querySelectorAll(".cell[data-asset-id]")) {
      const item = this.source?.item(Number(cell.dataset.index));
      if (item) labelCell(cell, item);
    }
  }

  /**
   * Asks the server to render the rows about to come into view, in the direction of scrolling
   * (PhotoKit's startCaching). Debounced: a fling asks only where it settles.
   */
  schedulePrefetch(firstVisible, lastVisible) {
    const top = this.element.scrollTop;
    const down = top >= this.lastScrollTop;
    this.lastScrollTop = top;
    clearTimeout(this.prefetchTimer);
    this.prefetchTimer = setTimeout(() => {
      const screen = lastVisible - firstVisible + 1;
      const ahead = Math.ceil(screen * PREFETCH_SCREENS);
      const from = down ? lastVisible + OVERSCAN_ROWS + 1 : Math.max(0, firstVisible - OVERSCAN_ROWS - ahead);
      const to = down ? Math.min(this.rowCount - 1, lastVisible + OVERSCAN_ROWS + ahead) : firstVisible - OVERSCAN_ROWS - 1;
      if (to < from) return;
      const firstIndex = from * this.columns;
      const lastIndex = Math.min(this.total - 1, (to + 1) * this.columns - 1);
      this.source.loadRange(firstIndex, lastIndex).then(() => {
        const ids = [];
        for (let index = firstIndex; index <= lastIndex; index += 1) {
          const item = this.source.item(index);
          if (item && !this.prefetched.has(item.id)) ids.push(item.id);
        }
        if (ids.length === 0) return;
        if (this.prefetched.size > 20000) this.prefetched.clear();
        for (const id of ids) this.prefetched.add(id);
        const px = this.thumbPixels;
        return api.prefetch(ids, { w: px, h: px, mode: "fill" });
      }).catch(() => undefined); // prefetch is a hint: a failure costs only speed
    }, PREFETCH_DELAY_MS);
  }

  /** The URL of the thumbnail the grid shows for `assetId` (in the browser's cache), if a cell shows one. */
  thumbURL(assetId) {
    const img = this.element.querySelector(`.cell[data-asset-id="${assetId}"] img.thumb`);
    return img && img.complete && img.naturalWidth > 0 ? img.currentSrc || img.src : null;
  }

  cell(index) {
    return this.element.querySelector(`.cell[data-index="${index}"]`);
  }

  /**
   * Moves the roving focus to `index`, scrolling it into view; with `select`, the range selection
   * runs to it (see extendRange); without, the range selection in progress ends.
   */
  moveFocus(index, { select }) {
    if (this.total === 0) return;
    const target = Math.max(0, Math.min(this.total - 1, index));
    const from = this.focus;
    this.focus = target;
    const row = Math.floor(target / this.columns);
    const top = row * this.rowHeight;
    const bottom = top + this.rowHeight + GAP; // the row, the ring's room below it
    const height = this.element.clientHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (bottom > this.element.scrollTop + height) this.element.scrollTop = bottom - height;
    this.render();
    this.cell(target)?.focus({ preventScroll: true });
    if (select) this.extendRange(from, target);
    else this.range = null;
  }

  /** Toggles the cell at `index`; the range selection in progress ends (the next starts there). */
  toggle(index) {
    const item = this.source.item(index);
    this.range = null;
    if (item) this.selection.toggle(item.id).catch((error) => this.onError(error));
  }

  /**
   * Range selection (Shift+Arrow, Shift+click, Shift+Space), as in a file manager: the range runs
   * from a fixed anchor (`from`, the cell focused when the range began) to its moving end `to`.
   * Moving the end back toward the anchor unpicks the cells that fall out of the range; the picks
   * the range keeps keep their numbers (Selection.selectRange).
   */
  extendRange(from, to) {
    if (!this.range) {
      const range = { anchor: from, end: to, added: new Set() };
      const source = this.source;
      // The assets from the anchor to the end as it is when the change runs (quick keys coalesce);
      // at most twice the maximum, nearest the anchor: any more are over it anyway.
      range.ids = async () => {
        const limit = 2 * this.selection.maxItems + 1;
        const { anchor, end } = range;
        const items = end >= anchor
          ? await source.items(anchor, end, limit)
          : (await source.items(Math.max(end, anchor - limit + 1), anchor, limit)).reverse();
        return items.map((item) => item.id);
      };
      this.range = range;
    }
    this.range.end = to;
    this.selection.selectRange(this.range).catch((error) => this.onError(error));
  }

  click(event) {
    const cell = event.target.closest(".cell");
    if (!cell || !cell.dataset.assetId) return;
    const index = Number(cell.dataset.index);
    if (event.target.closest(".cell-open")) {
      this.focus = index;
      this.onOpen(index);
      return;
    }
    const previousFocus = this.focus;
    this.focus = index;
    this.cell(previousFocus)?.setAttribute("tabindex", "-1");
    cell.tabIndex = 0;
    cell.focus({ preventScroll: true });
    if (event.shiftKey) this.extendRange(previousFocus, index);
    else this.toggle(index);
  }

  keydown(event) {
    if (!event.target.closest(".cell")) return;
    const pageRows = Math.max(1, Math.floor(this.element.clientHeight / this.rowHeight));
    const moves = {
      ArrowLeft: -1, ArrowRight: 1, ArrowUp: -this.columns, ArrowDown: this.columns,
      PageUp: -pageRows * this.columns, PageDown: pageRows * this.columns,
    };
    if (event.key in moves) {
      this.moveFocus(this.focus + moves[event.key], { select: event.shiftKey });
    } else if (event.key === "Home") {
      this.moveFocus(event.ctrlKey ? 0 : this.focus - (this.focus % this.columns), { select: event.shiftKey });
    } else if (event.key === "End") {
      const rowEnd = this.focus - (this.focus % this.columns) + this.columns - 1;
      this.moveFocus(event.ctrlKey ? this.total - 1 : rowEnd, { select: event.shiftKey });
    } else if (event.key === " ") {
      if (event.shiftKey) this.extendRange(this.focus, this.focus);
      else this.toggle(this.focus);
    } else if (event.key === "Enter") {
      this.onOpen(this.focus);
    } else if (event.key === "Escape") {
      this.onBack();
    } else {
      return;
    }
    event.preventDefault();
  }
}
