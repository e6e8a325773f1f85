// The browser: one asset large. A photo shows the grid's thumbnail at once (degraded), then
// the sharp rendition at screen size × devicePixelRatio (final) fetched with progress; a video
// plays from its original (the server answers Range requests). An original kept elsewhere (the
// item's `remoteOriginal`, a cloud badge in the grid) is brought first, its bytes of total shown
// under the degraded image or the video's poster; leaving stops it. Previous/next walk the album.

import { imageURL, originalURL, thumbnailURL } from "./api.js";
import { t, formatBytes } from "./i18n.js";
import { fetchOriginal } from "./original-transfer.js";
import { fetchWithProgress } from "./progress-fetch.js";

const SWIPE_MIN_PX = 40; // the least sideways travel that counts as a swipe

export class Browser {
  /**
   * @param {{selection: import("./selection.js").Selection, onClose: () => void, onError: (error: Error) => void,
   *          onMove: (index: number) => void, onFetched: (item: object) => void}} options
   *   `onFetched`: an item's original kept elsewhere is on the server's machine now.
   */
  constructor({ selection, onClose, onError, onMove, onFetched }) {
    this.selection = selection;
    this.onClose = onClose;
    this.onError = onError;
    this.onMove = onMove;
    this.onFetched = onFetched;
    this.view = document.getElementById("browser-view");
    this.image = document.getElementById("browser-image");
    this.video = document.getElementById("browser-video");
    this.progress = document.getElementById("browser-progress");
    this.transfer = document.getElementById("browser-transfer");
    this.caption = document.getElementById("browser-caption");
    this.prev = document.getElementById("browser-prev");
    this.next = document.getElementById("browser-next");
    this.select = document.getElementById("browser-select");
    this.close = document.getElementById("browser-close");
    this.source = null;
    this.index = 0;
    this.item = null;
    this.objectURL = null;
    this.abort = null;

    this.prev.addEventListener("click", () => this.show(this.index - 1));
    this.next.addEventListener("click", () => this.show(this.index + 1));
    this.select.addEventListener("click", () => this.toggle());
    this.close.addEventListener("click", () => this.onClose());
    // On the document: the keys work wherever the focus is while the browser shows.
    document.addEventListener("keydown", (event) => this.keydown(event));
    this.listenForSwipes(document.getElementById("browser-stage"));
    // No degraded image at hand (an original in the cloud without a preview): the stage stays
    // dark under the transfer's progress rather than showing a broken image.
    this.image.addEventListener("error", () => { this.image.dataset.missing = ""; });
    this.image.addEventListener("load", () => { delete this.image.dataset.missing; });
    // A video's progress shows until it can start playing.
    for (const type of ["loadeddata", "error"]) this.video.addEventListener(type, () => { this.progress.hidden = true; });
    selection.onChange(() => this.markSelected());
  }

  /**
   * Opens the browser on `source`'s asset at `index`. `thumbPixels` is the grid's thumbnail size;
   * `thumbURL(id)` answers the URL of a thumbnail the grid has loaded, if any.
   */
  open(source, index, { thumbPixels, thumbURL }) {
    this.source = source;
    this.thumbPixels = thumbPixels;
    this.thumbURL = thumbURL;
    this.show(index);
    this.select.focus();
  }

  /** Leaves: stops loading and playback, frees the object URL. */
  stop() {
    this.abort?.abort();
    this.abort = null;
    this.video.pause();
    this.video.removeAttribute("src");
    this.video.load();
    this.progress.hidden = true;
    this.showTransfer(null);
    if (this.objectURL) URL.revokeObjectURL(this.objectURL);
    this.objectURL = null;
  }

  async show(index) {
    if (!this.source || index < 0 || index >= this.source.total) return;
    this.index = index;
    this.onMove(index);
    let item = this.source.item(index);
    if (!item) {
      try {
        await this.source.load(index);
      } catch (error) {
        this.onError(error);
        return;
      }
      if (this.index !== index) return;
      item = this.source.item(index);
      if (!item) return;
    }
    this.stop();
    this.item = item;
    this.prev.disabled = index === 0;
    this.next.disabled = index >= this.source.total - 1;
    this.relabel();
    if (item.mediaType === "video") this.showVideo(item);
    else this.showPhoto(item);
  }

  quickThumb(item) {
    return thumbnailURL(item.id, this.thumbPixels, "fast");
  }

  async showVideo(item) {
    this.image.hidden = true;
    this.image.removeAttribute("src");
    this.video.hidden = false;
    this.video.poster = this.thumbURL(item.id) ?? this.quickThumb(item);
    this.progress.removeAttribute("value");
    this.progress.hidden = false;
    if (item.remoteOriginal) {
      const controller = new AbortController();
      this.abort = controller;
      try {
        await this.bringOriginal(item, controller.signal);
      } catch (error) {
        if (!controller.signal.aborted) {
          this.progress.hidden = true;
          this.onError(error);
        }
        return;
      } finally {
        if (this.abort === controller) this.abort = null;
      }
      if (controller.signal.aborted) return;
    }
    this.video.src = originalURL(item.id);
  }

  /**
   * Brings `item`'s original, kept elsewhere, to the server's machine, showing its bytes of
   * total; resolves once it is there (the item is then local: its badge goes).
   */
  async bringOriginal(item, signal) {
    this.showTransfer({ received: 0, total: item.byteSize });
    try {
      await fetchOriginal(item.id, { signal, onProgress: (progress) => {
        if (!signal.aborted) this.showTransfer(progress);
      } });
    } finally {
      // Aborted, the browser has moved on (stop() hid it; another transfer may show now).
      if (!signal.aborted) this.showTransfer(null);
    }
    item.remoteOriginal = false;
    this.onFetched?.(item);
  }

  /** Shows how far a transfer is (`{received, total}` bytes) on the progress bar and in words; null hides the words. */
  showTransfer(progress) {
    if (!progress) {
      this.transfer.hidden = true;
      this.transfer.textContent = "";
      this.progress.removeAttribute("aria-valuetext");
      return;
    }
    const text = t("transferProgress", { received: formatBytes(progress.received), total: formatBytes(progress.total) });
    this.progress.value = progress.total > 0 ? Math.min(1, progress.received / progress.total) : 0;
    this.progress.setAttribute("aria-valuetext", text);
    this.transfer.textContent = text;
    this.transfer.hidden = false;
  }

  async showPhoto(item) {
    this.video.hidden = true;
    this.image.hidden = false;
    this.image.alt = item.filename;
    // Degraded first: the grid's thumbnail (in the browser's cache), else the quickest answer.
    this.image.dataset.quality = "degraded";
    this.image.src = this.thumbURL(item.id) ?? this.quickThumb(item);
    // Then sharp, at the stage's size in device pixels, never more than the original has.
    const dpr = window.devicePixelRatio || 1;
    const stage = this.image.parentElement.getBoundingClientRect();
    const scale = Math.min(1, (stage.width * dpr) / item.pixelWidth, (stage.height * dpr) / item.pixelHeight);
    const w = Math.max(1, Math.round(item.pixelWidth * scale) || Math.round(stage.width * dpr));
    const h = Math.max(1, Math.round(item.pixelHeight * scale) || Math.round(stage.height * dpr));
    const controller = new AbortController();
    this.abort = controller;
    this.progress.hidden = false;
    try {
      // An original kept elsewhere comes first, with its bytes of total; then it renders here.
      if (item.remoteOriginal) await this.bringOriginal(item, controller.signal);
      if (controller.signal.aborted) return;
      const url = await fetchWithProgress(imageURL(item.id, { w, h, mode: "fit", delivery: "high", network: true }), {
        signal: controller.signal,
        onProgress: (fraction) => {
          if (fraction === null) this.progress.removeAttribute("value");
          else this.progress.value = fraction;
        },
      });
      if (controller.signal.aborted) {
        URL.revokeObjectURL(url);
        return;
      }
      // Decoded before it replaces the degraded image, so the swap does not flash.
      const sharp = new Image();
      sharp.src = url;
      await sharp.decode().catch(() => undefined);
      if (controller.signal.aborted) {
        URL.revokeObjectURL(url);
        return;
      }
      this.objectURL = url;
      this.image.src = url;
      this.image.dataset.quality = "final";
    } catch (error) {
      if (!controller.signal.aborted) this.onError(error);
    } finally {
      if (this.abort === controller) {
        this.progress.hidden = true;
        this.abort = null;
      }
    }
  }

  /** The caption and the select button in the current language. */
  relabel() {
    if (!this.item) return;
    this.caption.textContent = `${this.item.filename} · ${t("position", { index: this.index + 1, total: this.source.total })}`;
    if (this.item.mediaType === "video") this.video.setAttribute("aria-label", t("videoLabel", { name: this.item.filename }));
    this.markSelected();
  }

  markSelected() {
    if (!this.item) return;
    const selected = this.selection.has(this.item.id);
    this.select.setAttribute("aria-pressed", String(selected));
    const badge = this.selection.badge(this.item.id);
    this.select.textContent = selected ? `${t("selected")}${badge === "✓" ? " ✓" : ` · ${badge}`}` : t("select");
  }

  toggle() {
    if (this.item) this.selection.toggle(this.item.id).catch((error) => this.onError(error));
  }

  /**
   * A finger's horizontal swipe on the photo goes to the next (leftwards) or previous
   * (rightwards) one, as in a phone's photo app: one finger, mostly sideways, far enough. Vertical
   * panning and pinching stay the browser's (`touch-action` in styles.css).
   */
  listenForSwipes(stage) {
    let start = null;
    stage.addEventListener("touchstart", (event) => {
      start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
    }, { passive: true });
    stage.addEventListener("touchmove", (event) => {
      if (event.touches.length !== 1) start = null;
    }, { passive: true });
    stage.addEventListener("touchcancel", () => { start = null; }, { passive: true });
    stage.addEventListener("touchend", (event) => {
      if (!start || event.changedTouches.length !== 1) return;
      const dx = event.changedTouches[0].clientX - start.x;
      const dy = event.changedTouches[0].clientY - start.y;
      start = null;
      const far = Math.abs(dx) >= Math.max(SWIPE_MIN_PX, stage.clientWidth * 0.12);
      if (!far || Math.abs(dx) < Math.abs(dy) * 1.5) return;
      this.show(this.index + (dx < 0 ? 1 : -1));
    });
  }

  keydown(event) {
    if (this.view.hidden || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("select, input, dialog")) return;
    if (event.target.closest?.("video") && event.key === " ") return; // the player's own play/pause
    if (event.key === "ArrowLeft") this.show(this.index - 1);
    else if (event.key === "ArrowRight") this.show(this.index + 1);
    else if (event.key === " ") this.toggle();
    else if (event.key === "Escape") this.onClose();
    else return;
    event.preventDefault();
  }
}
