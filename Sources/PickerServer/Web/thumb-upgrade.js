// Thumbnails load with delivery=fast (an embedded or cached image, maybe smaller than asked).
// When one came back smaller than the cell needs, its sharp rendition (delivery=high) is
// fetched once scrolling has paused and the first screen is done, then swapped in after decoding.

import { imageURL } from "./api.js";
import { gridIsReady } from "./first-screen.js";

const IDLE_MS = 250;
const queue = new Set();
let timer = 0;
let lastScroll = 0;

/** Watches `img` (a cell's thumbnail of `assetId`) and queues it when it loads too small. */
export function watchThumb(img, assetId) {
  img.addEventListener("load", () => {
    const px = Number(img.dataset.px);
    // A fill thumbnail comes back at the asked size; a smaller one was a quick stand-in.
    if (img.naturalWidth >= px * 0.9 || img.naturalHeight >= px * 0.9 || img.dataset.quality === "high") return;
    queue.add({ img, assetId, px });
    schedule();
  }, { once: true });
}

/** The grid scrolled: sharpening waits for a pause. */
export function noteScroll() {
  lastScroll = performance.now();
  if (queue.size) schedule();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(run, IDLE_MS);
}

function run() {
  if (!gridIsReady() || performance.now() - lastScroll < IDLE_MS) {
    schedule();
    return;
  }
  for (const entry of queue) {
    queue.delete(entry);
    const { img, assetId, px } = entry;
    // Cells that left the DOM or show another asset now need nothing.
    if (!img.isConnected || img.closest(".cell")?.dataset.assetId !== assetId) continue;
    const url = imageURL(assetId, { w: px, h: px, mode: "fill", delivery: "high" });
    const sharp = new Image();
    sharp.src = url;
    sharp.decode().then(() => {
      if (img.isConnected && img.closest(".cell")?.dataset.assetId === assetId) {
        img.dataset.quality = "high";
        img.src = url;
      }
    }, () => undefined);
  }
}
