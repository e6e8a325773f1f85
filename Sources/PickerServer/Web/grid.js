// The virtualised grid: rows of a fixed height inside a sizer as tall as all rows; only the
// rows in the viewport (± a few) exist in the DOM. Scrolling fetches the pages of assets it
// reaches. Its geometry is in grid-layout.js, the prefetch of rows ahead in grid-prefetch.js,
// focus and keys in grid-keyboard.js.

import { fillCell, decorateCells, loadFirstScreen, markCell, labelCell, loadDeferred, cancelLoads, markLocal } from "./cell.js";
import { gridOpening, awaitFirstScreen } from "./first-screen.js";
import { GAP, MIN_CELL, geometry, visibleRows, makeRow } from "./grid-layout.js";
import { Prefetcher } from "./grid-prefetch.js";
import { moveFocus, handleClick, handleKeydown } from "./grid-keyboard.js";
import { noteScroll, upgradeNow } from "./thumb-upgrade.js";

const SETTLE_MS = 120; // after a jump, thumbnails start once scrolling rests this long

export class Grid {
  /**
   * @param {HTMLElement} element  #grid, the scrolling element
   * @param {{selection: import("./selection.js").Selection, onOpen: (index: number) => void,
   *          onBack: () => void, onError: (error: Error) => void, onTotal: () => void}} options
   *   `onTotal` runs when an opening album's total is known, before the grid measures its
   *   viewport: what it shows around the grid (the item count) must not move the grid afterwards.
   */
  constructor(element, { selection, onOpen, onBack, onError, onTotal }) {
    this.element = element;
    this.selection = selection;
    this.onOpen = onOpen;
    this.onBack = onBack;
    this.onError = onError;
    this.onTotal = onTotal;
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
    this.prefetcher = new Prefetcher(this);
    this.settleTimer = 0;
    this.opening = false; // true while the first screen of an album renders
    this.awaitingFirstScreen = false; // the rows beyond the first screen hold their thumbnails until it is done
    this.renderedTop = null; // scrollTop at the last render; null after the rows were cleared
    this.openings = 0; // albums opened: an older opening's first screen does nothing once shown
    this.assumed = null; // while an album opens on a box measured ahead: {width, height}, the grid at its top
    this.frame = 0;

    element.addEventListener("scroll", () => {
      noteScroll();
      this.scheduleRender();
    }, { passive: true });
    element.addEventListener("click", (event) => handleClick(this, event));
    element.addEventListener("dblclick", (event) => {
      const cell = event.target.closest(".cell[data-asset-id]");
      if (cell && !event.target.closest(".cell-open")) this.onOpen(Number(cell.dataset.index));
    });
    element.addEventListener("keydown", (event) => handleKeydown(this, event));
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

  /**
   * The grid's box as it is when it shows (`clientWidth`, `clientHeight`): measured ahead, so
   * that a grid opening at its top on it reads nothing of the page's layout (which would lay the
   * page out inside the click, before any thumbnail is asked for).
   */
  measure() {
    return { width: this.element.clientWidth, height: this.element.clientHeight };
  }

  /**
   * The first screen of a grid opening at its top on `box` (``measure``) with `total` items: how
   * many items it shows and its thumbnails' device pixels.
   */
  firstScreenOn(box, total) {
    const { columns, cellSize, rowHeight } = geometry(box.width - 2 * GAP);
    const { lastVisible } = visibleRows(0, box.height, rowHeight, Math.ceil(total / columns));
    return { count: Math.min(total, (lastVisible + 1) * columns), px: Math.round(cellSize * (window.devicePixelRatio || 1)) };
  }

  /**
   * Shows `source` from its start (a new album, sort or filter). With `box` (from ``measure``,
   * taken with the toolbar and the page as they are now, the grid at its top and never scrolled
   * since), the first screen is made without reading the layout; checked in the next frame, and
   * opened again without it if the grid's box is not that one. With `start` (from ``position``,
   * taken when the person left this album), the grid opens scrolled where it was.
   */
  async open(source, { box = null, start = null } = {}) {
    if (start && start.index > 0) box = null; // measured ahead at the top
    else start = null;
    gridOpening();
    const opening = ++this.openings;
    this.source = source;
    this.clearRows();
    this.prefetcher.clear();
    this.focus = 0;
    this.range = null;
    if (!box) this.element.scrollTop = 0;
    this.savedScrollTop = 0;
    this.element.dataset.total = "0";
    try {
      await source.load(start ? start.index : 0);
    } catch (error) {
      this.onError(error);
      return;
    }
    if (this.source !== source) return;
    // The count in the toolbar can wrap it onto a second line (a phone): shown after the first
    // screen was measured, it would push the grid down, and the first screen would wait for a
    // row that is off screen.
    this.onTotal();
    this.assumed = box;
    this.layout();
    if (start) {
      const row = Math.floor(Math.min(start.index, this.total - 1) / this.columns);
      this.element.scrollTop = row * this.rowHeight + start.offset;
      // The first row wholly in view takes the focus, so that focusing it scrolls nothing.
      this.focus = Math.min(this.total - 1, Math.ceil(this.element.scrollTop / this.rowHeight) * this.columns);
    }
    // The whole first screen's items, so that its thumbnails all start at once.
    const { firstVisible, lastVisible } = this.visibleRows();
    await source.loadRange(firstVisible * this.columns, Math.max(0, (lastVisible + 1) * this.columns - 1))
      .catch((error) => this.onError(error));
    if (this.source !== source) {
      this.assumed = null;
      return;
    }
    // The first screen takes the quickest thumbnails; every later row the final ones. The rows
    // kept beyond the viewport wait, so that the first screen has the connections to itself.
    this.opening = true;
    this.awaitingFirstScreen = true;
    this.render();
    this.opening = false;
    this.assumed = null;
    // Pages arriving from now on show where the grid is (the first screen's are here: a render
    // for them would make the rows around it before it is shown).
    source.onPage = () => this.scheduleRender();
    if (box) {
      requestAnimationFrame(() => {
        const actual = this.measure();
        if (this.source === source && (actual.width !== box.width || actual.height !== box.height)) this.open(source);
      });
    }
    const images = [];
    for (let row = firstVisible; row <= lastVisible; row += 1) {
      for (const img of this.rowElements.get(row)?.querySelectorAll("img.thumb") ?? []) images.push(img);
    }
    await loadFirstScreen(images, this.thumbPixels);
    this.afterFirstScreen(source, images, opening);
  }

  /**
   * Once the first screen's `images` are shown: its cells get their Open buttons, the rows kept
   * around it are made (until then the page's main thread is the first screen's alone: it
   * handles every thumbnail's answer and decode), their thumbnails load, and it sharpens.
   */
  async afterFirstScreen(source, images, opening) {
    const marked = await awaitFirstScreen(images);
    if (this.source !== source || opening !== this.openings) return;
    decorateCells(this.sizer, (index) => source.item(index));
    this.render();
    this.awaitingFirstScreen = false;
    loadDeferred(this.sizer);
    if (marked) upgradeNow();
    const { firstVisible, lastVisible } = this.visibleRows();
    this.prefetcher.schedule(firstVisible, lastVisible);
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

  /**
   * Where the grid is scrolled to, as the first item of the top row in view and the pixels it is
   * scrolled past: what ``open``'s `start` takes to come back there (per album, app.js).
   */
  position() {
    const top = this.element.scrollTop;
    const row = Math.floor(top / this.rowHeight);
    return { index: row * this.columns, offset: top - row * this.rowHeight };
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
    const width = (this.assumed ? this.assumed.width : this.element.clientWidth) - 2 * GAP;
    if (width > 0) this.width = width;
    const { columns, cellSize, rowHeight } = geometry(this.width);
    this.columns = columns;
    this.cellSize = cellSize;
    this.rowHeight = rowHeight;
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
    this.prefetcher.clear();
    this.clearRows();
    this.element.scrollTop = Math.floor(firstIndex / this.columns) * this.rowHeight;
    this.render();
  }

  visibleRows() {
    if (this.assumed) return visibleRows(0, this.assumed.height, this.rowHeight, this.rowCount);
    const height = this.element.clientHeight || window.innerHeight;
    return visibleRows(this.element.scrollTop, height, this.rowHeight, this.rowCount);
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
    const top = this.assumed ? 0 : this.element.scrollTop;
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
    // Until its first screen is shown, an opening grid makes only the rows on screen; those kept
    // around them follow (afterFirstScreen), or a scroll's render.
    const [from, to] = this.opening ? [firstVisible, lastVisible] : [first, last];
    const rows = [];
    for (let row = from; row <= to; row += 1) rows.push(row);
    if (focusRow < this.rowCount && (focusRow < from || focusRow > to)) rows.push(focusRow);
    for (const row of rows) {
      let element = this.rowElements.get(row);
      if (!element) {
        element = makeRow(row, this);
        this.rowElements.set(row, element);
        this.sizer.append(element);
      }
      // Until the first screen is shown, the rows beyond it take quick thumbnails, and wait; its
      // own cells are bare (afterFirstScreen decorates them).
      const beyond = this.awaitingFirstScreen && (row < firstVisible || row > lastVisible);
      const deferred = jumped || beyond || this.opening; // an opening's own rows: loadFirstScreen
      this.fillRow(element, { fast: jumped || this.opening || beyond, defer: deferred, bare: this.opening });
    }
    this.source.loadRange(first * this.columns, Math.min(this.total - 1, (last + 1) * this.columns - 1))
      .catch((error) => this.onError(error));
    // The server renders the first screen before it renders ahead.
    if (!this.awaitingFirstScreen) this.prefetcher.schedule(firstVisible, lastVisible);
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

  /** `item`'s original is on the server's machine now: its cell, if in the DOM, loses its cloud badge. */
  markLocal(item) {
    const cell = this.element.querySelector(`.cell[data-asset-id="${item.id}"]`);
    if (cell) markLocal(cell, item);
  }

  /** The URL of the thumbnail the grid shows for `assetId` (in the browser's cache), if a cell shows one. */
  thumbURL(assetId) {
    const img = this.element.querySelector(`.cell[data-asset-id="${assetId}"] img.thumb`);
    return img && img.complete && img.naturalWidth > 0 ? img.currentSrc || img.src : null;
  }

  cell(index) {
    return this.element.querySelector(`.cell[data-index="${index}"]`);
  }

  /** Moves the roving focus to `index` (see grid-keyboard.js). */
  moveFocus(index, options) {
    moveFocus(this, index, options);
  }
}
