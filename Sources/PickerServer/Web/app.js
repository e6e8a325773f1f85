// The picker page: loads the session, wires the album list, the grid, the browser, the
// selection summary, Done/Cancel, the language and the live feed together.

import * as api from "./api.js";
import { AlbumList } from "./albums.js";
import { AssetSource, preloadFirstPage, forgetPreloads } from "./asset-source.js";
import { Browser } from "./browser.js";
import { prepareCells, retryFailedThumbs } from "./cell.js";
import { listen } from "./events.js";
import { preloadBatch, forgetBatch } from "./first-screen-batch.js";
import { onFirstScreen } from "./first-screen.js";
import { Grid } from "./grid.js";
import { t, setLanguage, preferredLanguage, onLanguageChange, formatBytes, albumTitle } from "./i18n.js";
import { setUpImporting } from "./importing.js";
import { Selection } from "./selection.js";
import { announce } from "./status.js";
import { showView, showFinished, currentView } from "./views.js";

const $ = (id) => document.getElementById(id);

const languageSelect = $("language-select");
setLanguage(preferredLanguage());
languageSelect.value = document.documentElement.lang;

// The album list is asked for alongside the session, not after it.
const firstAlbums = api.getAlbums();
firstAlbums.catch(() => undefined); // if the session failed, that says what happened

let session;
try {
  session = await api.getSession();
} catch (error) {
  // Nothing else is set up yet: say what happened and stop here.
  if (error.status === 410) showFinished("ended", t("finishedEnded"));
  else announce(t("loadFailed", { message: error.message }), { kind: "error" });
  throw error;
}

api.useLimits(session.limits);
const selection = new Selection(session.selection, session.maxItems, session.order);
let currentAlbum = null;
let feed = null;
let focusOnShow = null; // the AssetSource whose grid's first cell takes the focus once its first screen is shown

const albumList = new AlbumList($("album-list"), (album) => openAlbum(album), (folder) => showFolder(folder));
const grid = new Grid($("grid"), {
  selection, onOpen: (index) => openBrowser(index), onBack: () => showAlbums(), onError: fail, onTotal: () => showGridTotal(),
});
const browser = new Browser({
  selection, onError: fail,
  onClose: () => closeBrowser(),
  onMove: (index) => { grid.focus = index; },
  onFetched: (item) => grid.markLocal(item),
});

const sortToggle = $("sort-toggle");
const mediaFilter = $("media-filter");
if (session.mediaFilter !== "all") {
  // The client program narrowed the picker: the filter shows that and cannot widen it.
  mediaFilter.value = session.mediaFilter;
  mediaFilter.disabled = true;
}

// The summary of the picks.
function showSelection() {
  $("selection-count").textContent = String(selection.count);
  $("selection-size").textContent = formatBytes(selection.byteSize);
}
let maximumShown = false;
selection.onChange(() => {
  showSelection();
  // The maximum's message holds until the picks change.
  if (maximumShown) announce("");
  maximumShown = false;
});
showSelection();

/** Shows an error: the maximum as a clear message, an ended session as the finished page. */
function fail(error) {
  if (error instanceof api.ApiError && error.status === 410) {
    finish("ended");
    return;
  }
  if (error instanceof api.ApiError && error.code === "maximumReached") {
    // The server's own words in English; the same message in the page's language otherwise.
    const localized = t("maximumReached", { count: session.maxItems });
    announce(document.documentElement.lang === "en" && error.message ? error.message : localized);
    maximumShown = true;
    return;
  }
  console.error(error);
  announce(t("loadFailed", { message: error.message }), { kind: "error" });
}

// Views.
function showAlbums() {
  if (currentView() === "browser") browser.stop();
  if (currentAlbum && currentView() === "grid") rememberPosition();
  showView("albums");
  showFolder(albumList.folder);
  // Back from a grid, the focus returns to that album's button.
  albumList.focus(currentAlbum?.id);
  currentAlbum = null;
  preloadCameraRoll();
}

/** The album list shows `folder`'s albums (`null`: the top level): its title, and Back to go up. */
function showFolder(folder) {
  if (currentView() !== "albums") return;
  $("view-title").textContent = folder ? albumTitle(folder) : t("albumsTitle");
  $("back-button").hidden = !folder;
  const empty = albumList.albums.length === 0;
  $("albums-empty").hidden = !empty;
  if (empty) $("albums-empty-hint").textContent = t(session.library.canImport ? "noAlbumsHintImport" : "noAlbumsHint", { name: session.library.name });
}

/**
 * Where each album's grid was scrolled to when the person left it (by album, sort and filter):
 * reopened, it comes back there, as a photo app's albums do.
 */
const positions = new Map();
const positionKey = (album) => `${album.id}\n${JSON.stringify(gridQuery())}`;
function rememberPosition() {
  if (grid.source && grid.total > 0) positions.set(positionKey(currentAlbum), grid.position());
}

/**
 * The first window of All Photos, fetched while the album list shows, so that its grid opens at
 * once; resolves when it is here. Once the grid's box is measured too, its first screen's
 * thumbnails are asked for as well (first-screen-batch.js).
 */
function preloadCameraRoll(albums = albumList.albums) {
  const cameraRoll = albums.find((album) => album.kind === "cameraRoll");
  if (!cameraRoll) return Promise.resolve();
  const query = gridQuery();
  return preloadFirstPage(cameraRoll.id, query).then((page) => {
    const measured = measuredGrid;
    if (!page || measured?.albumId !== cameraRoll.id || measured.query !== JSON.stringify(query)) return;
    const { count, px } = grid.firstScreenOn(measured.box, page.total);
    preloadBatch(page.items.slice(0, count).map((item) => item.id), px);
  });
}

// Another album: its first window is fetched as the pointer goes down on it, before the click.
$("album-list").addEventListener("pointerdown", (event) => {
  const album = albumList.album(event.target.closest?.("button.album")?.dataset.albumId);
  if (album) preloadFirstPage(album.id, gridQuery());
});

function gridQuery() {
  return { sort: sortToggle.getAttribute("aria-pressed") === "true" ? "oldest" : "newest", media: mediaFilter.value };
}

/**
 * The grid's box for All Photos, measured ahead (before any grid opened, the page unchanged
 * since): showing the grid view as a click on All Photos will (its title, its count), for one
 * layout while the album list waits, then the album list again; nothing is painted between.
 */
let measuredGrid = null;
function measureGrid(cameraRoll) {
  if (!cameraRoll) return;
  const title = $("view-title").textContent;
  showView("grid");
  $("view-title").textContent = albumTitle(cameraRoll);
  showTotal(cameraRoll.count);
  measuredGrid = { albumId: cameraRoll.id, query: JSON.stringify(gridQuery()), box: grid.measure() };
  showView("albums");
  $("view-title").textContent = title;
}
addEventListener("resize", () => { measuredGrid = null; });
onLanguageChange(() => { measuredGrid = null; });

function openAlbum(album) {
  currentAlbum = album;
  showView("grid");
  $("view-title").textContent = albumTitle(album);
  loadGrid({ focus: true });
}

/** Opens the grid on the current album, sort and filter; `focus` moves the keyboard focus to its first cell. */
async function loadGrid({ focus = false } = {}) {
  const source = new AssetSource(currentAlbum.id, gridQuery());
  // The browser gives the page six connections to the server and the live feed holds one: it
  // steps aside until the first screen's thumbnails are shown, then catches up (catchUp).
  feed?.pause();
  const measured = measuredGrid;
  measuredGrid = null; // once: the grid does not start at its top again
  const box = measured?.albumId === currentAlbum.id && measured.query === JSON.stringify(gridQuery()) ? measured.box : null;
  // The first cell takes the focus once the first screen is shown (focusOnShow): focusing lays
  // the new cells out again, which would take the main thread from the thumbnails' answers and decodes.
  focusOnShow = focus ? source : null;
  await grid.open(source, { box, start: positions.get(positionKey(currentAlbum)) });
}

function showGridTotal() {
  showTotal(grid.total);
}

function showTotal(total) {
  $("grid-total").textContent = t("items", { count: total });
  $("grid-empty").hidden = total > 0;
  // An empty grid is no grid (a grid without rows is not one to assistive technology).
  $("grid").hidden = total === 0;
  if (total === 0) showEmptyGrid();
}

/** What an empty grid means, and what the person can do about it. */
function showEmptyGrid() {
  const narrowed = session.mediaFilter !== "all";
  const media = mediaFilter.value;
  const album = currentAlbum;
  const library = session.library;
  let title, hint;
  if (media !== "all" && !narrowed) {
    title = t(media === "video" ? "emptyNoVideos" : "emptyNoPhotos");
    hint = t("emptyFilterHint");
  } else if (narrowed) {
    title = t(media === "video" ? "emptyNoVideos" : "emptyNoPhotos");
    hint = t("emptyNarrowedHint");
  } else if (!album || album.kind === "cameraRoll") {
    title = t("emptyLibrary");
    hint = t(library.canImport ? "noAlbumsHintImport" : "noAlbumsHint", { name: library.name });
  } else if (album.smartKind === "favorites") {
    title = t("emptyFavorites");
    hint = t("emptyFavoritesHint");
  } else {
    title = t("emptyAlbum");
    hint = t(album.kind === "directory" ? "emptyFolderHint" : "emptyAlbumHint");
  }
  $("grid-empty-title").textContent = title;
  $("grid-empty-hint").textContent = hint;
}

function openBrowser(index) {
  if (!grid.source || index >= grid.total) return;
  grid.hide();
  showView("browser");
  browser.open(grid.source, index, { thumbPixels: grid.thumbPixels, thumbURL: (id) => grid.thumbURL(id) });
}

function closeBrowser() {
  browser.stop();
  showView("grid");
  grid.show(grid.focus);
}

sortToggle.addEventListener("click", () => {
  const oldest = sortToggle.getAttribute("aria-pressed") !== "true";
  sortToggle.setAttribute("aria-pressed", String(oldest));
  labelSortToggle();
  if (currentAlbum) loadGrid();
});
function labelSortToggle() {
  const oldest = sortToggle.getAttribute("aria-pressed") === "true";
  sortToggle.dataset.i18n = oldest ? "oldestFirst" : "newestFirst";
  sortToggle.textContent = t(sortToggle.dataset.i18n);
}
mediaFilter.addEventListener("change", () => {
  if (currentAlbum) loadGrid();
});

$("back-button").addEventListener("click", () => {
  if (currentView() === "browser") closeBrowser();
  else if (currentView() === "albums") albumList.up();
  else showAlbums();
});

// Esc anywhere in the grid view (the toolbar, say) goes back to the album list, as in the grid;
// in a folder of albums, up one level.
document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.key !== "Escape" || event.target.closest?.("dialog")) return;
  if (currentView() === "grid" && !event.target.closest?.("#grid")) showAlbums();
  else if (currentView() === "albums" && albumList.folder) albumList.up();
});

// Done and Cancel.
let finishing = false;
async function finish(state) {
  feed?.stop();
  browser.stop();
  const messages = { complete: "finishedComplete", cancelled: "finishedCancelled", ended: "finishedEnded" };
  currentAlbum = null;
  $("view-title").textContent = t("pageTitle");
  showFinished(state, t(messages[state]));
  // One of the person's own sessions (the one `serve` made at start, or one the demo client page
  // made): the demo client page shows what its program received (docs/SECURITY.md).
  if (session.clientView && state !== "ended") {
    const link = $("finished-link");
    link.href = new URL(`/demo/?session=${encodeURIComponent(session.id)}`, location.origin).href;
    link.dataset.i18n = state === "complete" ? "seeReceived" : "backToDemo";
    link.textContent = t(link.dataset.i18n);
    $("finished-next").hidden = false;
    if (state === "complete") {
      location.replace(link.href);
      return;
    }
  }
  // Opened at `pickerUri/autoclose` (as Google's picker takes it): the app waiting for the
  // answer has it; close the tab (browsers allow it for tabs a script opened; else the message stays).
  if (state !== "ended" && new URLSearchParams(location.search).has("autoclose")) window.close();
}
/** Asks before Cancel throws picks away; answers whether to go on. */
const cancelDialog = $("cancel-dialog");
function confirmCancel() {
  if (selection.count === 0) return Promise.resolve(true);
  $("cancel-question").textContent = t("cancelQuestion", { count: selection.count });
  cancelDialog.showModal();
  $("cancel-keep").focus();
  return new Promise((resolve) => {
    cancelDialog.addEventListener("close", () => resolve(cancelDialog.returnValue === "cancel"), { once: true });
  });
}
$("cancel-keep").addEventListener("click", () => cancelDialog.close("keep"));
$("cancel-confirm").addEventListener("click", () => cancelDialog.close("cancel"));

for (const [id, call] of [["done-button", api.done], ["cancel-button", api.cancel]]) {
  $(id).addEventListener("click", async () => {
    if (finishing) return;
    cancelDialog.returnValue = "";
    if (id === "cancel-button" && !(await confirmCancel())) return;
    if (finishing) return;
    finishing = true;
    try {
      const answer = await call();
      finish(answer.state);
    } catch (error) {
      finishing = false;
      fail(error);
    }
  });
}

// Language.
languageSelect.addEventListener("change", () => setLanguage(languageSelect.value));
onLanguageChange(() => {
  labelSortToggle();
  showSelection();
  albumList.render();
  grid.relabel();
  if (currentAlbum) {
    $("view-title").textContent = albumTitle(currentAlbum);
    showGridTotal();
  } else {
    showFolder(albumList.folder);
  }
  if (currentView() === "browser") browser.relabel();
});

// Adding to the library.
setUpImporting($("import-tools"), session.library, {
  selection, announce, onError: fail,
  onUploaded: () => refreshLibrary(),
  onAlbumCreated: () => albumList.load().catch(fail),
});

/** The library changed: new counts and posters, and the grid's window fetched again. */
async function refreshLibrary() {
  forgetPreloads();
  forgetBatch();
  try {
    const albums = await albumList.load();
    if (currentView() === "albums") preloadCameraRoll();
    if (currentAlbum) {
      currentAlbum = albums.find((album) => album.id === currentAlbum.id) ?? currentAlbum;
      if (currentView() === "grid") {
        await grid.refresh();
        showGridTotal();
      }
    }
  } catch (error) {
    fail(error);
  }
}

/**
 * The live feed was closed for a while (a pause, a dropped stream): what it did not tell.
 * The session's picks and state, and a library change, seen in the albums' counts, posters or titles.
 */
function catchUp() {
  selection.enqueue(async () => {
    const current = await api.getSession();
    if (current.state !== "picking") finish(current.state === "complete" ? "complete" : "cancelled");
    else selection.apply(current.selection);
  }).catch(fail);
  api.getAlbums().then((albums) => {
    const seen = (list) => JSON.stringify(list.map(({ id, title, count, posterId }) => [id, title, count, posterId ?? null])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    if (seen(albums) !== seen(albumList.albums)) refreshLibrary();
  }).catch(fail);
}

onFirstScreen(() => {
  // The first cell, or the first row in view of an album reopened where it was left.
  if (focusOnShow && focusOnShow === grid.source) grid.moveFocus(grid.focus, { select: false });
  focusOnShow = null;
  feed?.resume();
  retryFailedThumbs();
});

// The live feed.
feed = listen({
  onReopen: () => catchUp(),
  onLibrary: () => refreshLibrary(),
  onSession: (data) => {
    if (data.state && data.state !== "picking") {
      finish(data.state === "complete" ? "complete" : "cancelled");
      return;
    }
    // Picks changed elsewhere (another tab): take the server's selection. The refetch waits
    // for this page's changes in flight, so an older answer cannot overwrite a newer one.
    selection.enqueue(async () => selection.apply((await api.getSession()).selection)).catch(fail);
  },
  // The server refused the feed: if the session is gone (deleted: 404, ended: 410), say so.
  onLost: () => api.getSession().catch((error) => ([404, 410].includes(error.status) ? finish("ended") : fail(error))),
});

// Start on the album list, shown once All Photos' first window is here too (waited for a moment
// at most): a click on it then makes the grid's cells and asks for their thumbnails at once.
const FIRST_WINDOW_WAIT_MS = 500;
try {
  const albums = await firstAlbums;
  const firstWindow = preloadCameraRoll(albums);
  // While the first window is on its way.
  prepareCells();
  measureGrid(albums.find((album) => album.kind === "cameraRoll"));
  await Promise.race([firstWindow, new Promise((resolve) => setTimeout(resolve, FIRST_WINDOW_WAIT_MS))]);
  await albumList.load(Promise.resolve(albums));
  showAlbums();
  if (session.droppedPreselected?.length) announce(t("droppedPreselected", { count: session.droppedPreselected.length }));
} catch (error) {
  fail(error);
}
