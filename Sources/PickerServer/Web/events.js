// The live feed (GET api/events, server-sent events): `library` when the library changed,
// `session` when the session's picks or state changed elsewhere. It can step aside for a while
// (pause): HTTP/1.1 gives a page six connections to its server, and the feed holds one of them.

import { API } from "./api.js";

const MAX_PAUSE_MS = 10_000; // a pause nobody ends ends by itself

/**
 * Listens until `stop()` is called.
 * @param {{onLibrary: () => void, onSession: (data: {state: string, count?: number}) => void,
 *          onLost: () => void, onReopen: () => void}} handlers
 *   `onLost` runs when the feed closed for good (the server refused it: the session ended);
 *   `onReopen` when the feed is open again after a pause or a dropped stream: what happened
 *   meanwhile was not told.
 * @returns {{stop: () => void, pause: () => void, resume: () => void}}
 */
export function listen({ onLibrary, onSession, onLost, onReopen }) {
  let source = null;
  let opened = false; // a stream was open before: the next one missed what happened between
  let stopped = false;
  let pauseTimer = 0;

  function start() {
    source = new EventSource(API + "events");
    source.addEventListener("open", () => {
      if (opened) onReopen();
      opened = true;
    });
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
  }

  function close() {
    source?.close();
    source = null;
  }

  function resume() {
    clearTimeout(pauseTimer);
    if (!stopped && !source) start();
  }

  start();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(pauseTimer);
      close();
    },
    /** Closes the stream until `resume()` (or MAX_PAUSE_MS), giving its connection to other requests. */
    pause: () => {
      close();
      clearTimeout(pauseTimer);
      if (!stopped) pauseTimer = setTimeout(resume, MAX_PAUSE_MS);
    },
    resume,
  };
}
