// An album's assets as the grid needs them: fetched in pages by offset/limit when a row comes
// near the viewport, kept in a bounded least-recently-used cache of pages, so that scrolling
// through 100,000 assets holds only a few thousand items in memory.

import { getAssets } from "./api.js";

const PAGE_SIZE = 200;
const MAX_PAGES = 30;

// First pages fetched before their album opens (the album list shows: All Photos is the likely
// click), each taken by the first AssetSource that needs it. Key: album id, sort and filter.
const preloaded = new Map();
const preloadKey = (albumId, { sort, media }) => `${albumId}\n${sort}\n${media}`;
const firstPage = (albumId, query) => getAssets(albumId, { offset: 0, limit: PAGE_SIZE, ...query });

/**
 * Fetches the first page of `albumId` under `query` now, for a grid that may open on it soon;
 * resolves with it (`{total, offset, items}`) when it is here, or with null (failed: the opening
 * asks again).
 */
export function preloadFirstPage(albumId, query) {
  const key = preloadKey(albumId, query);
  let promise = preloaded.get(key);
  if (!promise) {
    promise = firstPage(albumId, query);
    promise.catch(() => preloaded.delete(key));
    preloaded.set(key, promise);
  }
  return promise.catch(() => null);
}

/** The library changed: pages fetched ahead are out of date. */
export function forgetPreloads() {
  preloaded.clear();
}

function takePreload(albumId, query) {
  const key = preloadKey(albumId, query);
  const promise = preloaded.get(key);
  preloaded.delete(key);
  return promise?.catch(() => firstPage(albumId, query));
}

export class AssetSource {
  /** @param {string} albumId  @param {{sort: "newest"|"oldest", media: "all"|"photo"|"video"}} query */
  constructor(albumId, query) {
    this.albumId = albumId;
    this.query = query;
    this.total = 0;
    this.pages = new Map(); // page number → items, in least-recently-used order
    this.loading = new Map(); // page number → promise
    this.generation = 0; // bumped on reset: answers of older requests are dropped
    this.onPage = () => {};
  }

  /** Forgets every page (the library changed); the next requests fetch again. */
  reset() {
    this.generation += 1;
    this.pages.clear();
    this.loading.clear();
  }

  /** The item at `index`, if its page is here (marks the page as recently used). */
  item(index) {
    const number = Math.floor(index / PAGE_SIZE);
    const page = this.pages.get(number);
    if (!page) return undefined;
    this.pages.delete(number);
    this.pages.set(number, page);
    return page[index - number * PAGE_SIZE];
  }

  /** Fetches the page holding `index` unless it is here or on its way; resolves when it is here. */
  load(index) {
    const number = Math.floor(index / PAGE_SIZE);
    if (this.pages.has(number)) return Promise.resolve();
    const pending = this.loading.get(number);
    if (pending) return pending;
    const generation = this.generation;
    const preload = number === 0 ? takePreload(this.albumId, this.query) : undefined;
    const promise = (preload ?? getAssets(this.albumId, { offset: number * PAGE_SIZE, limit: PAGE_SIZE, ...this.query }))
      .then((window) => {
        if (generation !== this.generation) return;
        this.loading.delete(number);
        this.total = window.total;
        this.pages.set(number, window.items);
        while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value);
        this.onPage(number);
      })
      .catch((error) => {
        if (generation === this.generation) this.loading.delete(number);
        throw error;
      });
    this.loading.set(number, promise);
    return promise;
  }

  /** Loads the pages that hold indexes `first…last`. */
  loadRange(first, last) {
    const promises = [];
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page += 1) {
      promises.push(this.load(page * PAGE_SIZE));
    }
    return Promise.all(promises);
  }

  /**
   * The items at indexes `first…last` (fetching what is missing), at most `limit` of them: for a
   * range selection that may reach past the cache.
   */
  async items(first, last, limit) {
    const end = Math.min(last, first + limit - 1, Math.max(0, this.total - 1));
    const result = [];
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page += 1) {
      await this.load(page * PAGE_SIZE);
      for (let index = Math.max(first, page * PAGE_SIZE); index <= Math.min(end, page * PAGE_SIZE + PAGE_SIZE - 1); index += 1) {
        const item = this.item(index);
        if (item) result.push(item);
      }
    }
    return result;
  }
}
