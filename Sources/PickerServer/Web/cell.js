// One grid cell's DOM: a gridcell with the thumbnail, an Open button, a video's duration, a
// cloud badge when its original is kept elsewhere and, when picked, the pick badge. Cells are made
// for the rows near the viewport only.

import { thumbnailURL } from "./api.js";
import { t, formatDate, formatDuration } from "./i18n.js";
import { isSharpKnown, rememberSharp, openSharpMemory } from "./sharp-memory.js";
import { watchThumb, cancelUpgrade } from "./thumb-upgrade.js";
import { takeBatch } from "./first-screen-batch.js";
import { gridIsReady } from "./first-screen.js";

/**
 * Makes ahead what the first cells of a grid need once (the date format with its locale data,
 * the browser's storage): the click that opens a grid should only make cells.
 */
export function prepareCells() {
  formatDate(new Date().toISOString());
  openSharpMemory();
}

/** A cell for `index`; without `item` it is a placeholder until its page arrives. */
export function makeCell(index) {
  const cell = document.createElement("div");
  cell.className = "cell placeholder";
  cell.setAttribute("role", "gridcell");
  cell.dataset.index = String(index);
  cell.tabIndex = -1;
  cell.setAttribute("aria-busy", "true");
  cell.setAttribute("aria-selected", "false");
  return cell;
}

/**
 * Shows `item` in `cell` with a thumbnail of `px`×`px` device pixels. With `fast` the thumbnail
 * is the quickest answer (delivery=fast), sharpened later, unless this browser has the final one
 * cached already; else the final one (delivery=high, which the server's prefetch has usually
 * rendered already). With `defer` the image's URL waits in data-src until ``loadDeferred`` (the
 * grid is flying past). With `bare` the cell gets its thumbnail and its name only: its Open
 * button and a video's duration wait for ``decorateCells`` (a first screen lays out and paints
 * half the boxes, and no text, while its thumbnails arrive).
 */
export function fillCell(cell, item, px, { fast = false, defer = false, bare = false } = {}) {
  cell.classList.remove("placeholder");
  cell.removeAttribute("aria-busy");
  cell.dataset.assetId = item.id;
  cell.dataset.media = item.mediaType;
  cell.replaceChildren();

  const img = document.createElement("img");
  img.className = "thumb";
  img.alt = item.filename;
  img.draggable = false;
  img.decoding = "async";
  img.dataset.px = String(px);
  const quick = fast && !isSharpKnown(item.id, px);
  if (quick) watchThumb(img, item.id);
  else img.addEventListener("load", () => {
    if (img.dataset.quality !== "held") rememberSharp(item.id, px); // a held one is not in the browser's cache
  }, { once: true });
  img.addEventListener("error", () => noteFailure(img));
  // An original kept elsewhere with nothing at hand (no preview) has no thumbnail: the cell
  // shows its placeholder and its cloud badge rather than a broken image.
  img.addEventListener("load", () => { delete img.dataset.missing; });
  const url = thumbnailURL(item.id, px, quick ? "fast" : "high");
  if (defer) img.dataset.src = url;
  else img.src = url;
  cell.append(img);
  labelCell(cell, item);
  if (bare) cell.dataset.bare = "";
  else decorate(cell, item);
}

/** Gives the bare cells under `root` (``fillCell``'s `bare`) their Open button and a video's duration. */
export function decorateCells(root, itemAt) {
  for (const cell of root.querySelectorAll(".cell[data-bare]")) {
    const item = itemAt(Number(cell.dataset.index));
    if (!item || item.id !== cell.dataset.assetId) continue;
    delete cell.dataset.bare;
    decorate(cell, item);
  }
}

function decorate(cell, item) {
  if (item.remoteOriginal) cell.append(cloudBadge());
  if (item.mediaType === "video") {
    const duration = document.createElement("span");
    duration.className = "video-duration";
    duration.textContent = item.duration != null ? formatDuration(item.duration) : "▶";
    cell.append(duration);
  }

  const open = document.createElement("button");
  open.type = "button";
  open.className = "cell-open";
  open.tabIndex = -1;
  open.setAttribute("aria-label", t("open"));
  open.textContent = "⤢";
  cell.append(open);
}

/**
 * The cell's accessible name: kind, file name, date and whether its original is in the cloud
 * (re-done when the language changes).
 */
export function labelCell(cell, item) {
  cell.setAttribute("aria-label", t(item.remoteOriginal ? "cellLabelRemote" : "cellLabel", {
    kind: t(item.mediaType === "video" ? "video" : "photo"), name: item.filename, date: formatDate(item.creationDate),
  }));
  const open = cell.querySelector(".cell-open");
  if (open) open.setAttribute("aria-label", t("open"));
  const cloud = cell.querySelector(".cloud-badge");
  if (cloud) labelCloudBadge(cloud);
}

/** A cloud drawn in a 24 × 24 box, in the badge's text colour. */
const CLOUD_PATH = "M7 19h10.5a4.5 4.5 0 0 0 .6-8.96A6 6 0 0 0 6.34 9.02 5 5 0 0 0 7 19z";

/**
 * The mark of an item whose original is kept elsewhere (a bucket): a cloud in the cell's top
 * left corner, away from the pick number (bottom right), the Open button (top right) and a
 * video's duration (bottom left).
 */
function cloudBadge() {
  const badge = document.createElement("span");
  badge.className = "cloud-badge";
  badge.setAttribute("role", "img");
  labelCloudBadge(badge);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", CLOUD_PATH);
  svg.append(path);
  badge.append(svg);
  return badge;
}

function labelCloudBadge(badge) {
  badge.setAttribute("aria-label", t("cloudBadge"));
  badge.title = t("cloudBadge");
}

/**
 * `item`'s original is on the server's machine now (its large view brought it): the cell loses
 * its cloud badge, and a thumbnail that was missing for want of it is asked for again.
 */
export function markLocal(cell, item) {
  cell.querySelector(".cloud-badge")?.remove();
  labelCell(cell, item);
  const img = cell.querySelector("img.thumb");
  if (img && img.dataset.missing !== undefined && img.dataset.px) {
    delete img.dataset.retried;
    img.src = thumbnailURL(item.id, Number(img.dataset.px), "high");
  }
}

/** Shows whether the cell's asset is picked: aria-selected and the badge (pick number or ✓). */
export function markCell(cell, badgeText) {
  const selected = badgeText !== null;
  cell.setAttribute("aria-selected", String(selected));
  let badge = cell.querySelector(".pick-badge");
  if (!selected) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "pick-badge";
    badge.setAttribute("aria-hidden", "true");
    cell.append(badge);
  }
  badge.textContent = badgeText;
}

/**
 * Starts the first screen's thumbnails, deferred in data-src, from one answer (``takeBatch``):
 * a final one shows as it is (data-quality "held": not sharpened, not in the browser's cache); a
 * quick one stands in for a cell's fast thumbnail and is sharpened as one; the rest load one by
 * one. If the batch fails, they all do.
 */
export async function loadFirstScreen(images, px) {
  const batch = await takeBatch(images.map((img) => img.closest(".cell")?.dataset.assetId).filter(Boolean), px);
  for (const img of images) {
    const deferred = img.dataset.src;
    if (!deferred) continue; // its cell was emptied meanwhile
    const given = batch.get(img.closest(".cell")?.dataset.assetId);
    // A cell whose final thumbnail this browser has cached takes that rather than a quick one.
    const fast = new URL(deferred, location.href).searchParams.get("delivery") === "fast";
    if (given?.final) img.dataset.quality = "held";
    img.src = given && (given.final || fast) ? given.url : deferred;
    delete img.dataset.src;
  }
}

/** Starts the deferred thumbnails of the cells under `root`. */
export function loadDeferred(root) {
  for (const img of root.querySelectorAll("img.thumb[data-src]")) {
    img.src = img.dataset.src;
    delete img.dataset.src;
  }
}

/**
 * Cancels the thumbnail downloads still running in a row that leaves the DOM, and their sharp
 * upgrades: the browser closes their connections, and the server stops waiting for their renders.
 */
export function cancelLoads(row) {
  for (const img of row.querySelectorAll("img.thumb")) {
    if (!img.complete) img.removeAttribute("src");
    delete img.dataset.src;
    cancelUpgrade(img);
  }
}

/**
 * Thumbnails that failed, to be asked for once more. A thumbnail may be refused while the
 * session's images fill its budget (429: `tooManyRenders`, or `renderSuperseded` when more urgent
 * images took its place, "ask for it again when it is on screen"): asked again once the first
 * screen is shown, or when the live feed is back, it loads.
 */
const failed = new Set();

function noteFailure(img) {
  img.dataset.missing = "";
  if (img.dataset.retried || !img.getAttribute("src") || img.getAttribute("src").startsWith("data:")) return;
  img.dataset.retried = "true";
  failed.add(img);
  // Once the first screen is shown the feed is open again: no need to wait for the next one.
  if (gridIsReady()) setTimeout(retryFailedThumbs, 0);
}

/** Asks once more for the thumbnails that failed (those still in the grid). */
export function retryFailedThumbs() {
  for (const img of failed) {
    const url = img.getAttribute("src");
    if (!img.isConnected || !url) continue;
    img.removeAttribute("src");
    img.src = url;
  }
  failed.clear();
}
