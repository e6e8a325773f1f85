// The picker page's API (docs/PICKER-UI-API.md): every path is relative to the page's own
// location, which carries the session id and its secret token.

/**
 * This page's path with its empty segments dropped, e.g. `/picker/SESSION/TOKEN/`: one slash
 * first, so a URL built on it stays on this page's origin. The path as the address bar has it
 * could start `//` (the server sends such spellings to the canonical path, but a script does not
 * rely on it), and a URL built on `//picker/…` names the host `picker`.
 */
export function canonicalPagePath(pathname = location.pathname) {
  const segments = pathname.split("/").filter(Boolean);
  return segments.length > 0 ? `/${segments.join("/")}/` : "/";
}

/** The API's base path, e.g. `/picker/SESSION/TOKEN/api/`, on this page's origin. */
export const API = `${canonicalPagePath()}api/`;

/** An answer other than 2xx, with the server's readable message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, { json, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers }, credentials: "same-origin" };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body;
  }
  let response;
  try {
    response = await fetch(API + path, init);
  } catch (error) {
    throw new ApiError(0, "network", error.message);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error;
    throw new ApiError(response.status, error ? error.code : "http", error ? error.message : response.statusText);
  }
  return data;
}

const id = (value) => encodeURIComponent(value);

/**
 * What the server takes (`limits` of GET api/session): the thumbnails' quality and the bounds of
 * one thumbnail batch and one prefetch. Set by `useLimits` before any thumbnail is asked for.
 */
let limits = null;

/** Takes the server's `limits` (GET api/session's): the page asks within them, never its own copies. */
export function useLimits(serverLimits) {
  limits = serverLimits;
}

export const getSession = () => request("GET", "session");
export const getAlbums = () => request("GET", "albums").then((data) => data.albums);

/** A window of an album's assets: `{total, offset, items}`. */
export function getAssets(albumId, { offset, limit, sort, media }) {
  const query = new URLSearchParams({ offset, limit, sort, media });
  return request("GET", `albums/${id(albumId)}/assets?${query}`);
}

/**
 * The URL of an asset's image at `w`×`h` device pixels (`quality`: the server's default when left
 * out). With `network`, an original kept elsewhere may be fetched to make it (the large view);
 * without, the server answers what it has at hand and never waits for the network (the grid).
 */
export function imageURL(assetId, { w, h, mode = "fill", delivery = "high", format = "jpeg", quality, network = false }) {
  const query = new URLSearchParams({ w: clampSide(w), h: clampSide(h), mode, format, delivery });
  if (quality !== undefined) query.set("quality", quality);
  if (network) query.set("network", "1");
  return `${API}assets/${id(assetId)}/image?${query}`;
}

/**
 * The URL of an asset's thumbnail, `px`×`px` device pixels cropped to fill, at the quality the
 * server's batches and prefetch make (the same rendition, so they answer it).
 */
export function thumbnailURL(assetId, px, delivery) {
  return imageURL(assetId, { w: px, h: px, mode: "fill", delivery, quality: limits.thumbnailQuality });
}

/** The URL of an asset's original file (videos play from it; the server answers Range requests). */
export const originalURL = (assetId) => `${API}assets/${id(assetId)}/original`;

/** Asks the server to start rendering thumbnails the grid is about to show (startCaching). */
export function prefetch(ids, { w, h, mode = "fill" }) {
  const bounds = limits.prefetch;
  const side = (value) => clampSide(value, bounds.side);
  const fitting = Math.floor(bounds.pixels / (side(w) * side(h)));
  const json = { ids: ids.slice(0, Math.min(bounds.ids, fitting)), w: side(w), h: side(h), mode };
  return request("POST", "prefetch", { json });
}

/**
 * A first screen's thumbnails in one answer (POST api/thumbnails): the final ones the server
 * holds and, for the others, the quickest image at hand (a preview, an embedded thumbnail): a
 * Map of id → {url, final}, the URL a `data:` URL (decoded in this page's process, unlike a
 * `blob:` URL, which the browser loads through its own). Those it leaves out are asked for one by one.
 */
export async function batchThumbnails(ids, { w, h, mode = "fill" }) {
  // Larger thumbnails than a batch takes are asked for one by one.
  if (Math.max(w, h) > limits.batch.side) return new Map();
  const json = { ids: ids.slice(0, limits.batch.ids), w: clampSide(w), h: clampSide(h), mode };
  const { thumbnails } = await request("POST", "thumbnails", { json });
  return new Map(thumbnails.map(({ id: assetId, type, final, data }) => [assetId, { url: `data:${type};base64,${data}`, final }]));
}

export const pick = (assetId) => request("POST", `selection/${id(assetId)}`).then((data) => data.selection);
export const unpick = (assetId) => request("DELETE", `selection/${id(assetId)}`).then((data) => data.selection);
export const replaceSelection = (ids) => request("PUT", "selection", { json: { ids } }).then((data) => data.selection);
export const done = () => request("POST", "done");
export const cancel = () => request("POST", "cancel");

/** Imports a file into the library; it comes back picked unless the maximum is reached. */
export function upload(file) {
  // Percent-encoded, not form-encoded: the server reads `+` as a plus, as in any URL's query.
  return request("POST", `upload?filename=${encodeURIComponent(file.name)}`, { body: file, headers: { "Content-Type": "application/octet-stream" } });
}

export const createAlbum = (title) => request("POST", "albums", { json: { title } }).then((data) => data.album);

/** The server takes sides from 1 to 4096 pixels (a larger screen gets a 4096 rendition, scaled). */
function clampSide(value, maximum = 4096) {
  return Math.min(maximum, Math.max(1, Math.round(value)));
}
