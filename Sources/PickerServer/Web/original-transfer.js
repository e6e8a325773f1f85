// Brings an original kept elsewhere (a bucket) to the server's machine, for the browser's large
// view: POST api/assets/{id}/fetch answers a stream of events, `progress` ({received, total}
// bytes) as the original comes, then `done` or `failed` ({error}). Aborting the fetch (the
// person left the large view, or the page) closes the connection, and the server stops the
// transfer unless someone else waits for it.

import { API, ApiError } from "./api.js";

/**
 * @param {string} assetId
 * @param {{signal: AbortSignal, onProgress: (progress: {received: number, total: number}) => void}} options
 * @returns {Promise<void>} resolved once the original is on the server's machine
 */
export async function fetchOriginal(assetId, { signal, onProgress }) {
  const response = await fetch(`${API}assets/${encodeURIComponent(assetId)}/fetch`, {
    method: "POST", credentials: "same-origin", signal,
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
    // Events are separated by a blank line; the last part may be an event still coming.
    const parts = text.split("\n\n");
    text = parts.pop();
    for (const part of parts) {
      const event = parse(part);
      if (!event) continue;
      if (event.name === "progress") onProgress(event.data);
      else if (event.name === "done") {
        onProgress(event.data);
        return;
      } else if (event.name === "failed") {
        const error = event.data.error ?? {};
        throw new ApiError(error.status ?? 0, error.code ?? "fetchFailed", error.message ?? "");
      }
    }
  }
  throw new ApiError(0, "network", "the transfer ended before the original arrived");
}

/** An event's name and its JSON data; null for a comment or a malformed event. */
function parse(part) {
  let name = null;
  let data = null;
  for (const line of part.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice(7);
    else if (line.startsWith("data: ")) data = line.slice(6);
  }
  if (!name || data === null) return null;
  try {
    return { name, data: JSON.parse(data) };
  } catch {
    return null;
  }
}

/** The API's error of an answer other than 2xx. */
async function failure(response) {
  try {
    const { error } = await response.json();
    return new ApiError(response.status, error.code, error.message);
  } catch {
    return new ApiError(response.status, "http", response.statusText);
  }
}
