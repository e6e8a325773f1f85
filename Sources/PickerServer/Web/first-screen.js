// The timing hook of a grid's first screen: when every cell in the initial viewport has its
// thumbnail loaded and decoded, mark "grid-first-screen" and set data-grid-ready="true".

const root = document.documentElement;
let generation = 0;
const shownListeners = new Set();

/** Calls `listener` each time a grid's first screen is shown (after its mark). */
export function onFirstScreen(listener) {
  shownListeners.add(listener);
}

/** A grid is opening: the old mark no longer applies. */
export function gridOpening() {
  generation += 1;
  root.dataset.gridReady = "false";
}

/**
 * Waits for the thumbnails `images` to decode (a failed one counts as settled), then marks;
 * answers false if another grid opened meanwhile (no mark).
 */
export async function awaitFirstScreen(images) {
  const mine = generation;
  await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
  if (mine !== generation) return false;
  performance.clearMarks("grid-first-screen");
  performance.mark("grid-first-screen");
  root.dataset.gridReady = "true";
  for (const listener of shownListeners) listener();
  return true;
}

export const gridIsReady = () => root.dataset.gridReady === "true";
