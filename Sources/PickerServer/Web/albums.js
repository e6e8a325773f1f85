// The album list: poster, title and count of each album, All Photos (the camera roll) first.
// Folders of albums (a library's folders, and a folder of the file tree that holds only folders,
// such as DCIM) open as lists of their own, as Apple Photos' folders do; an album inside an
// album-folder of the tree (a folder with photos of its own and folders below) is listed beside it.

import { getAlbums, thumbnailURL } from "./api.js";
import { t, albumTitle } from "./i18n.js";

const POSTER_CSS_PX = 72;

export class AlbumList {
  /**
   * @param {HTMLUListElement} list
   * @param {(album: object) => void} onOpen  an album was chosen
   * @param {(folder: object|null) => void} onFolder  a folder was opened (`null`: the top level)
   */
  constructor(list, onOpen, onFolder = () => {}) {
    this.list = list;
    this.albums = [];
    this.byId = new Map();
    this.folderId = null; // the folder whose albums show; null: the top level
    this.onFolder = onFolder;
    list.addEventListener("click", (event) => {
      const folder = event.target.closest("button.folder");
      if (folder) {
        this.openFolder(folder.dataset.folderId);
        return;
      }
      const button = event.target.closest("button.album");
      const album = button && this.album(button.dataset.albumId);
      if (album) onOpen(album);
    });
  }

  /** Fetches the albums again (or takes those `pending` brings) and shows them. */
  async load(pending = getAlbums()) {
    const albums = await pending;
    // The server lists the camera roll first; keep it first even if that ever changes.
    this.albums = [...albums.filter((album) => album.kind === "cameraRoll"), ...albums.filter((album) => album.kind !== "cameraRoll")];
    this.byId = new Map(this.albums.map((album) => [album.id, album]));
    this.parents = new Set(this.albums.map((album) => album.parentId).filter(Boolean));
    if (this.folderId && !this.isFolder(this.byId.get(this.folderId))) this.folderId = null;
    this.render();
    return this.albums;
  }

  album(id) {
    return this.byId.get(id);
  }

  /** The folder that shows, or `null` at the top level. */
  get folder() {
    return this.folderId ? this.byId.get(this.folderId) ?? null : null;
  }

  /** Whether `album` opens as a list of albums: a folder, or a folder of the tree with nothing of its own and folders below. */
  isFolder(album) {
    if (!album) return false;
    return album.kind === "folder" || (album.kind === "directory" && album.count === 0 && this.parents.has(album.id));
  }

  /** The folder (its id) whose list shows `album`: the nearest folder above it; `null` for the top level. */
  shownIn(album) {
    let parent = album.parentId && this.byId.get(album.parentId);
    while (parent && !this.isFolder(parent)) parent = parent.parentId && this.byId.get(parent.parentId);
    return parent ? parent.id : null;
  }

  /** The albums and folders listed in the folder `id` (`null`: the top level), in the server's order. */
  entries(id = this.folderId) {
    return this.albums.filter((album) => this.shownIn(album) === id);
  }

  openFolder(id) {
    this.folderId = id && this.isFolder(this.byId.get(id)) ? id : null;
    this.render();
    this.onFolder(this.folder);
    this.focus();
  }

  /** Up one level; answers the folder that was left (for its button to take the focus), or `null` at the top. */
  up() {
    const left = this.folder;
    if (!left) return null;
    this.folderId = this.shownIn(left);
    this.render();
    this.onFolder(this.folder);
    this.focus(left.id);
    return left;
  }

  render() {
    const focusedId = document.activeElement?.closest?.("button.album, button.folder")?.dataset;
    const px = Math.round(POSTER_CSS_PX * (window.devicePixelRatio || 1));
    this.list.replaceChildren(...this.entries().map((album) => {
      const item = document.createElement("li");
      item.append(this.isFolder(album) ? this.folderButton(album, px) : this.albumButton(album, px));
      return item;
    }));
    const id = focusedId && (focusedId.albumId || focusedId.folderId);
    if (id) this.focus(id, { fallback: false });
  }

  albumButton(album, px) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "album";
    button.dataset.albumId = album.id;
    button.setAttribute("aria-label", t("albumLabel", { title: albumTitle(album), count: album.count }));
    const count = document.createElement("span");
    count.className = "album-count";
    count.textContent = String(album.count);
    button.append(poster(album.posterId, px, "album-poster"), title(albumTitle(album)), count);
    return button;
  }

  folderButton(folder, px) {
    const inside = this.entries(folder.id);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "folder";
    button.dataset.folderId = folder.id;
    button.setAttribute("aria-label", t("folderLabel", { title: albumTitle(folder), count: inside.length }));
    const cover = this.firstPoster(folder.id);
    const mark = poster(cover, px, "album-poster folder-poster");
    if (!cover) mark.textContent = "▤";
    const count = document.createElement("span");
    count.className = "folder-count";
    count.textContent = t("albumsCount", { count: inside.length });
    button.append(mark, title(albumTitle(folder)), count);
    return button;
  }

  /** The poster of the first album with one inside the folder `id`, at any depth. */
  firstPoster(id, depth = 0) {
    for (const album of this.entries(id)) {
      if (album.posterId) return album.posterId;
      if (depth < 8 && this.isFolder(album)) {
        const found = this.firstPoster(album.id, depth + 1);
        if (found) return found;
      }
    }
    return null;
  }

  /** The button of album or folder `id` (or else, unless `fallback` is false, the first one) takes the focus. */
  focus(id, { fallback = true } = {}) {
    const selector = id && `button.album[data-album-id="${CSS.escape(id)}"], button.folder[data-folder-id="${CSS.escape(id)}"]`;
    const button = selector && this.list.querySelector(selector);
    (button || (fallback ? this.list.querySelector("button.album, button.folder") : null))?.focus();
  }
}

/** A poster: the final rendition of `posterId` (cacheable, so re-rendering costs nothing), or the bare placeholder. */
function poster(posterId, px, className) {
  // An empty album shows the bare placeholder, not an image without pixels.
  const element = document.createElement(posterId ? "img" : "span");
  element.className = className;
  if (posterId) {
    element.alt = "";
    element.width = POSTER_CSS_PX;
    element.height = POSTER_CSS_PX;
    element.src = thumbnailURL(posterId, px, "high");
  } else {
    element.setAttribute("aria-hidden", "true");
  }
  return element;
}

function title(text) {
  const element = document.createElement("span");
  element.className = "album-title";
  element.textContent = text;
  return element;
}
