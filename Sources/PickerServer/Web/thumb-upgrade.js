// The first screen's thumbnails and those of rows a fling lands on load with delivery=fast:
// an embedded or cached image, maybe degraded, answered with `Cache-Control: no-store`. Their
// final rendition (delivery=high, cacheable) is fetched once the first screen is done and
// scrolling has paused, and swapped in after decoding; scrolling back then finds it cached.
// An upgrade is sent with `X-Image-Upgrade: 1`, so the server renders it after every visible
// cell's first image, and given up when its cell leaves the DOM (cancelUpgrade): the fetch is
// aborted, and the image decoding it (which loads it again, from the cache if it can) loses its src.
// A fast answer that was the final rendition already (the server had it: `Server-Timing: final`,
// read from the resource timeline, since an image's headers cannot be) needs no upgrade.

import { thumbnailURL } from "./api.js";
import { gridIsReady } from "./first-screen.js";
import { rememberSharp } from "./sharp-memory.js";

const IDLE_MS = 250; // a pause in scrolling this long lets the upgrades run
const RETRY_MS = 50; // upgrades held back (a first screen not shown yet) look again this soon
const queue = new Set();
const running = new Map(); // img → its upgrade in flight: {controller: of its fetch, sharp: the Image decoding it}
let timer = 0;
let lastScroll = 0;

const FINAL_LIMIT = 4000;
const finalAnswers = new Set(); // URLs answered with their final rendition, oldest first
const finalObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!isFinalAnswer(entry)) continue;
    finalAnswers.add(entry.name);
    if (finalAnswers.size > FINAL_LIMIT) finalAnswers.delete(finalAnswers.values().next().value);
  }
});
let observing = false;

/**
 * Starts noting final answers as they come, with those in the timeline already: once the first
 * screen is shown, so that its seventy answers do not each cost the page's main thread a call.
 */
function observeFinalAnswers() {
  if (observing) return;
  observing = true;
  finalObserver.observe({ type: "resource", buffered: true });
}

function isFinalAnswer(entry) {
  return entry.serverTiming?.some((metric) => metric.name === "final") ?? false;
}

/** Whether `url` was answered with its final rendition (the observer may not have seen it yet: the timeline may have). */
function answeredFinal(url) {
  return finalAnswers.has(url) || performance.getEntriesByName(url, "resource").some(isFinalAnswer);
}

/** Queues `img`, a cell's fast thumbnail of `assetId`, for its final rendition once it has loaded. */
export function watchThumb(img, assetId) {
  img.addEventListener("load", () => {
    queue.add({ img, assetId, px: Number(img.dataset.px) });
    // During a first screen its thumbnails only queue: its end sharpens them (upgradeNow). Once
    // it is done, a thumbnail loading late need not wait for company.
    if (gridIsReady()) schedule(0);
  }, { once: true });
}

/**
 * The first screen is done: sharpen it now, so that the browser caches the final thumbnails
 * (and sharp-memory.js notes them) before the person scrolls on, or reloads.
 */
export function upgradeNow() {
  observeFinalAnswers();
  if (queue.size) schedule(0);
}

/** The grid scrolled: sharpening waits for a pause. */
export function noteScroll() {
  lastScroll = performance.now();
  if (queue.size) schedule(IDLE_MS);
}

function schedule(delay) {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

function run() {
  observeFinalAnswers();
  const sinceScroll = performance.now() - lastScroll;
  if (!gridIsReady() || sinceScroll < IDLE_MS) {
    schedule(Math.max(RETRY_MS, IDLE_MS - sinceScroll));
    return;
  }
  for (const entry of queue) {
    queue.delete(entry);
    const { img, assetId, px } = entry;
    // Cells that left the DOM or show another asset now need nothing, nor one that shows a
    // final thumbnail of a first screen's batch.
    if (!img.isConnected || img.closest(".cell")?.dataset.assetId !== assetId || img.dataset.quality === "held") continue;
    if (answeredFinal(img.currentSrc || img.src)) {
      img.dataset.quality = "high";
      continue;
    }
    upgrade(img, assetId, thumbnailURL(assetId, px, "high"), px);
  }
}

/** Fetches the final rendition (into the browser's cache), decodes it, then shows it in `img`. */
async function upgrade(img, assetId, url, px) {
  const controller = new AbortController();
  const sharp = new Image();
  const entry = { controller, sharp };
  running.set(img, entry);
  const shows = () => img.isConnected && img.closest(".cell")?.dataset.assetId === assetId;
  try {
    const response = await fetch(url, { headers: { "X-Image-Upgrade": "1" }, credentials: "same-origin", signal: controller.signal });
    // A degraded answer (an original kept elsewhere, not here: what was at hand) sharpens nothing.
    if (!response.ok || response.headers.get("X-Image-Degraded") === "1") return;
    await response.blob();
    if (!shows()) return;
    sharp.src = url; // from the browser's cache now
    await sharp.decode();
    if (shows()) {
      img.dataset.quality = "high";
      img.src = url;
      rememberSharp(assetId, px);
    }
  } catch {
    // aborted, refused, or its decode given up: the fast thumbnail stays
  } finally {
    if (running.get(img) === entry) running.delete(img);
  }
}

/** The cell of `img` left the DOM: its upgrade, queued or in flight, is given up. */
export function cancelUpgrade(img) {
  for (const entry of queue) {
    if (entry.img === img) queue.delete(entry);
  }
  const entry = running.get(img);
  if (entry) {
    entry.controller.abort();
    entry.sharp.removeAttribute("src"); // a load still running is cancelled; decode() rejects
  }
  running.delete(img);
}
