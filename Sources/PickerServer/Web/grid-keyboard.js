// The grid's focus and picking by keyboard and pointer: a roving tabindex over the cells,
// arrows, pages, Home/End, Space to pick, Shift for a range, Enter to open, Escape to go back.

import { GAP } from "./grid-layout.js";

/**
 * Moves the roving focus to `index`, scrolling it into view; with `select`, the range selection
 * runs to it (see extendRange); without, the range selection in progress ends.
 * @param {import("./grid.js").Grid} grid
 */
export function moveFocus(grid, index, { select }) {
  if (grid.total === 0) return;
  const target = Math.max(0, Math.min(grid.total - 1, index));
  const from = grid.focus;
  grid.focus = target;
  const row = Math.floor(target / grid.columns);
  const top = row * grid.rowHeight;
  const bottom = top + grid.rowHeight + GAP; // the row, the ring's room below it
  const height = grid.element.clientHeight;
  if (top < grid.element.scrollTop) grid.element.scrollTop = top;
  else if (bottom > grid.element.scrollTop + height) grid.element.scrollTop = bottom - height;
  grid.render();
  grid.cell(target)?.focus({ preventScroll: true });
  if (select) extendRange(grid, from, target);
  else grid.range = null;
}

/** Toggles the cell at `index`; the range selection in progress ends (the next starts there). */
function toggle(grid, index) {
  const item = grid.source.item(index);
  grid.range = null;
  if (item) grid.selection.toggle(item.id).catch((error) => grid.onError(error));
}

/**
 * Range selection (Shift+Arrow, Shift+click, Shift+Space), as in a file manager: the range runs
 * from a fixed anchor (`from`, the cell focused when the range began) to its moving end `to`.
 * Moving the end back toward the anchor unpicks the cells that fall out of the range; the picks
 * the range keeps keep their numbers (Selection.selectRange).
 */
function extendRange(grid, from, to) {
  if (!grid.range) {
    const range = { anchor: from, end: to, added: new Set() };
    const source = grid.source;
    // The assets from the anchor to the end as it is when the change runs (quick keys coalesce);
    // at most twice the maximum, nearest the anchor: any more are over it anyway.
    range.ids = async () => {
      const limit = 2 * grid.selection.maxItems + 1;
      const { anchor, end } = range;
      const items = end >= anchor
        ? await source.items(anchor, end, limit)
        : (await source.items(Math.max(end, anchor - limit + 1), anchor, limit)).reverse();
      return items.map((item) => item.id);
    };
    grid.range = range;
  }
  grid.range.end = to;
  grid.selection.selectRange(grid.range).catch((error) => grid.onError(error));
}

/** A click on a cell picks it (Shift: the range to it); on its open button, opens it. */
export function handleClick(grid, event) {
  const cell = event.target.closest(".cell");
  if (!cell || !cell.dataset.assetId) return;
  const index = Number(cell.dataset.index);
  if (event.target.closest(".cell-open")) {
    grid.focus = index;
    grid.onOpen(index);
    return;
  }
  const previousFocus = grid.focus;
  grid.focus = index;
  grid.cell(previousFocus)?.setAttribute("tabindex", "-1");
  cell.tabIndex = 0;
  cell.focus({ preventScroll: true });
  if (event.shiftKey) extendRange(grid, previousFocus, index);
  else toggle(grid, index);
}

/** The grid's keys, while a cell has the focus. */
export function handleKeydown(grid, event) {
  if (!event.target.closest(".cell")) return;
  const pageRows = Math.max(1, Math.floor(grid.element.clientHeight / grid.rowHeight));
  const moves = {
    ArrowLeft: -1, ArrowRight: 1, ArrowUp: -grid.columns, ArrowDown: grid.columns,
    PageUp: -pageRows * grid.columns, PageDown: pageRows * grid.columns,
  };
  if (event.key in moves) {
    moveFocus(grid, grid.focus + moves[event.key], { select: event.shiftKey });
  } else if (event.key === "Home") {
    moveFocus(grid, event.ctrlKey ? 0 : grid.focus - (grid.focus % grid.columns), { select: event.shiftKey });
  } else if (event.key === "End") {
    const rowEnd = grid.focus - (grid.focus % grid.columns) + grid.columns - 1;
    moveFocus(grid, event.ctrlKey ? grid.total - 1 : rowEnd, { select: event.shiftKey });
  } else if (event.key === " ") {
    if (event.shiftKey) extendRange(grid, grid.focus, grid.focus);
    else toggle(grid, grid.focus);
  } else if (event.key === "Enter") {
    grid.onOpen(grid.focus);
  } else if (event.key === "Escape") {
    grid.onBack();
  } else {
    return;
  }
  event.preventDefault();
}
