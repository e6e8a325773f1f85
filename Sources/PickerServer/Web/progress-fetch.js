// Fetches an image with a streamed body, reporting progress as the bytes arrive, and hands
// back an object URL of the whole (the caller revokes it). A large original or a rendition the
// server is still preparing can take a while: the progress bar shows that something happens.

/**
 * @param {string} url
 * @param {{signal: AbortSignal, onProgress: (fraction: number|null) => void}} options
 *   `fraction` is null while the size is unknown (no Content-Length).
 * @returns {Promise<string>} an object URL
 */
export async function fetchWithProgress(url, { signal, onProgress }) {
  onProgress(null);
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const length = Number(response.headers.get("Content-Length")) || 0;
  const type = response.headers.get("Content-Type") || "application/octet-stream";
  if (!response.body) return URL.createObjectURL(await response.blob());
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(length ? Math.min(1, received / length) : null);
  }
  return URL.createObjectURL(new Blob(chunks, { type }));
}
