// The live feed (GET api/events, server-sent events): `library` when the library changed,
// `session` when the session's picks or state changed elsewhere.

import { API } from "./api.js";

/**
 * Listens until `stop()` is called.
 * @param {{onLibrary: () => void, onSession: (data: {state: string, count?: number}) => void, onLost: () => void}} handlers
 *   `onLost` runs when the feed closed for good (the server refused it: the session ended).
 * @returns {{stop: () => void}}
 */
export function listen({ onLibrary, onSession, onLost }) {
  const source = new EventSource(API + "events");
  source.addEventListener("library", () => onLibrary());
  source.addEventListener("session", (event) => {
    try {
      onSession(JSON.parse(event.data));
    } catch {
      // A malformed event carries nothing to act on.
    }
  });
  source.addEventListener("error", () => {
    // EventSource reconnects by itself after a dropped stream; CLOSED means it gave up.
    if (source.readyState === EventSource.CLOSED) onLost();
  });
  return { stop: () => source.close() };
}
