// The album list: poster, title and count of each album, All Photos (the camera roll) first.

import { getAlbums, thumbnailURL } from "./api.js";
import { t, albumTitle } from "./i18n.js";

const POSTER_CSS_PX = 72;

export class AlbumList {
  /** @param {HTMLUListElement} list  @param {(album: object) => void} onOpen */
  constructor(list, onOpen) {
    this.list = list;
    this.albums = [];
    list.addEventListener("click", (event) => {
      const button = event.target.closest("button.album");
      const album = button && this.albums.find((candidate) => candidate.id === button.dataset.albumId);
      if (album) onOpen(album);
    });
  }

  /** Fetches the albums again (or takes those `pending` brings) and shows them. */
  async load(pending = getAlbums()) {
    const albums = await pending;
    // The server lists the camera roll first; keep it first even if that ever changes.
    this.albums = [...albums.filter((album) => album.kind === "cameraRoll"), ...albums.filter((album) => album.kind !== "cameraRoll")];
    this.render();
    return this.albums;
  }

  album(id) {
    return this.albums.find((album) => album.id === id);
  }

  render() {
    const focusedId = document.activeElement?.closest?.("button.album")?.dataset.albumId;
    const px = Math.round(POSTER_CSS_PX * (window.devicePixelRatio || 1));
    this.list.replaceChildren(...this.albums.map((album) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "album";
      button.dataset.albumId = album.id;
      button.setAttribute("aria-label", t("albumLabel", { title: albumTitle(album), count: album.count }));

      // An empty album (a folder holding only folders, say) shows the bare placeholder, not an image without pixels.
      const poster = document.createElement(album.posterId ? "img" : "span");
      poster.className = "album-poster";
      if (album.posterId) {
        poster.alt = "";
        poster.width = POSTER_CSS_PX;
        poster.height = POSTER_CSS_PX;
        // The final rendition: cacheable, so re-rendering the list (language, library change) costs nothing.
        poster.src = thumbnailURL(album.posterId, px, "high");
      }

      const title = document.createElement("span");
      title.className = "album-title";
      title.textContent = albumTitle(album);
      const count = document.createElement("span");
      count.className = "album-count";
      count.textContent = String(album.count);

      button.append(poster, title, count);
      item.append(button);
      return item;
    }));
    if (focusedId) this.list.querySelector(`button.album[data-album-id="${CSS.escape(focusedId)}"]`)?.focus();
  }

  /** The button of album `id` (or else the first album's) takes the focus. */
  focus(id) {
    const button = id && this.list.querySelector(`button.album[data-album-id="${CSS.escape(id)}"]`);
    (button || this.list.querySelector("button.album"))?.focus();
  }
}
