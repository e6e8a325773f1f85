// A first screen's thumbnails in one answer (POST api/thumbnails: the final ones the server
// holds, quick ones for the others), asked for once per opening: at the click, or ahead, while
// the album list shows, for All Photos' first screen (its first window and the grid's box are
// known before the click), so that a click finds them here, or on their way, and asks for the
// rest at once.

import { batchThumbnails } from "./api.js";

let ahead = null; // {ids: Set, px, answer: Promise<Map>}

/** Asks ahead for the thumbnails of `ids` at `px`×`px` (the likely next first screen). */
export function preloadBatch(ids, px) {
  if (ahead && ahead.px === px && ids.length === ahead.ids.size && ids.every((id) => ahead.ids.has(id))) return;
  const answer = batchThumbnails(ids, { w: px, h: px });
  answer.catch(() => {}); // a failed one is asked again by the opening
  ahead = { ids: new Set(ids), px, answer };
}

/** The library changed: what was asked ahead may be out of date. */
export function forgetBatch() {
  ahead = null;
}

/**
 * The batch of `ids` at `px`: the one asked ahead when it covers `ids` (taken: once), else asked
 * now. A Map of id → {url, final}; empty when the server had nothing at hand or could not answer.
 */
export async function takeBatch(ids, px) {
  const early = ahead;
  ahead = null;
  try {
    if (early && early.px === px && ids.every((id) => early.ids.has(id))) return await early.answer;
  } catch {
    // asked again below
  }
  try {
    return ids.length ? await batchThumbnails(ids, { w: px, h: px }) : new Map();
  } catch {
    return new Map(); // refused or cut off: one by one
  }
}
