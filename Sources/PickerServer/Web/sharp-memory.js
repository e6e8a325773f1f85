// Which assets' final thumbnails (delivery=high, cacheable for a day) this browser has loaded,
// per thumbnail size: a grid opening again shows those straight from the browser's cache instead
// of asking for the quick ones (delivery=fast answers are never cached). Kept in localStorage,
// bounded; if the browser's cache dropped one, the final thumbnail is simply fetched again.

const LIMIT = 4000; // ids per size
const SAVE_DELAY_MS = 1000;
const memories = new Map(); // size → Set of ids, oldest first
let saveTimer = 0;

function key(px) {
  return `assets-picker.sharp.${px}`;
}

function memory(px) {
  let ids = memories.get(px);
  if (!ids) {
    try {
      ids = new Set(JSON.parse(localStorage.getItem(key(px)) || "[]"));
    } catch {
      ids = new Set(); // storage refused or spoiled: start empty
    }
    memories.set(px, ids);
  }
  return ids;
}

/**
 * Opens the browser's storage ahead (its first use waits on the browser), so that the click
 * that opens a grid does not.
 */
export function openSharpMemory() {
  try {
    localStorage.getItem(key(0));
  } catch {
    // refused: every opening asks for quick thumbnails
  }
}

/** Whether the final `px` thumbnail of `id` was loaded here before. */
export function isSharpKnown(id, px) {
  return memory(px).has(id);
}

/** Notes that the final `px` thumbnail of `id` is in the browser's cache now. */
export function rememberSharp(id, px) {
  const ids = memory(px);
  if (ids.has(id)) return;
  ids.add(id);
  if (ids.size > LIMIT) ids.delete(ids.values().next().value);
  clearTimeout(saveTimer);
  saveTimer = setTimeout(save, SAVE_DELAY_MS);
}

// A page closed within the delay still keeps what it learnt.
addEventListener("pagehide", () => save());

function save() {
  for (const [px, ids] of memories) {
    try {
      localStorage.setItem(key(px), JSON.stringify([...ids]));
    } catch {
      // Storage full or refused: the next opening asks for quick thumbnails, no harm done.
    }
  }
}
