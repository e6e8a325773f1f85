// The grid's geometry: how many columns fit, how big a cell is, which rows the viewport
// reaches, and the row elements placed with transforms inside the sizer.

import { makeCell } from "./cell.js";

export const GAP = 4; // between cells, and around the rows (room for the focus ring)
export const MIN_CELL = 112; // CSS pixels
export const MIN_COLUMNS = 4; // a phone's narrow screen too shows four across (cells below MIN_CELL)
export const OVERSCAN_ROWS = 3; // rows kept above and below the viewport

/** Columns, cell size and row height for `width` CSS pixels of content. */
export function geometry(width) {
  const columns = Math.max(MIN_COLUMNS, Math.floor((width + GAP) / (MIN_CELL + GAP)));
  const cellSize = Math.max(40, Math.floor((width - GAP * (columns - 1)) / columns));
  return { columns, cellSize, rowHeight: cellSize + GAP };
}

/**
 * The rows the viewport shows (`firstVisible`…`lastVisible`) and those kept in the DOM around
 * them (`first`…`last`), for a scroll position `top` and a viewport `height`.
 */
export function visibleRows(top, height, rowHeight, rowCount) {
  const last = Math.max(0, rowCount - 1);
  const firstVisible = Math.min(last, Math.floor(top / rowHeight));
  const lastVisible = Math.min(last, Math.floor((top + height - 1) / rowHeight));
  return {
    firstVisible, lastVisible,
    first: Math.max(0, firstVisible - OVERSCAN_ROWS),
    last: Math.min(last, lastVisible + OVERSCAN_ROWS),
  };
}

/** Row `row` with a placeholder cell for each of its items, placed where it belongs. */
export function makeRow(row, { columns, cellSize, rowHeight, total }) {
  const element = document.createElement("div");
  element.className = "grid-row";
  element.setAttribute("role", "row");
  element.setAttribute("aria-rowindex", String(row + 1));
  element.style.transform = `translate(${GAP}px, ${row * rowHeight + GAP}px)`;
  element.style.height = `${cellSize}px`;
  element.style.gridTemplateColumns = `repeat(${columns}, ${cellSize}px)`;
  const end = Math.min(total, (row + 1) * columns);
  for (let index = row * columns; index < end; index += 1) element.append(makeCell(index));
  return element;
}
