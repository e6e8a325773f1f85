// The final thumbnails of a first screen that the server holds (POST api/thumbnails), asked for
// once per opening: at the click, or ahead, while the album list shows, for All Photos' first
// screen (its first window and the grid's box are known before the click), so that a click
// finds them here, or on their way, and asks for the others at once.

import { heldThumbnails } from "./api.js";

let ahead = null; // {ids: Set, px, answer: Promise<Map>}

/** Asks ahead for the held thumbnails of `ids` at `px`×`px` (the likely next first screen). */
export function preloadHeld(ids, px) {
  if (ahead && ahead.px === px && ids.length === ahead.ids.size && ids.every((id) => ahead.ids.has(id))) return;
  const answer = heldThumbnails(ids, { w: px, h: px });
  answer.catch(() => {}); // a failed one is asked again by the opening
  ahead = { ids: new Set(ids), px, answer };
}

/** The library changed: what was asked ahead may be out of date. */
export function forgetHeld() {
  ahead = null;
}

/**
 * The held thumbnails of `ids` at `px`: those asked ahead when they cover `ids` (taken: once),
 * else asked now. A Map of id → URL; empty when the server holds none or could not answer.
 */
export async function takeHeld(ids, px) {
  const early = ahead;
  ahead = null;
  try {
    if (early && early.px === px && ids.every((id) => early.ids.has(id))) return await early.answer;
  } catch {
    // asked again below
  }
  try {
    return ids.length ? await heldThumbnails(ids, { w: px, h: px }) : new Map();
  } catch {
    return new Map(); // refused or cut off: one by one
  }
}
