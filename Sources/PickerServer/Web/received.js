// What the program received (received.html): after Done in the server's own session, the picks
// as the client API answers them, each baseUrl's thumbnail and its original (=d). The answers
// come through the session's own paths (`received/v1/…`, ClientViewRoutes.swift), as the
// signed-in person: the page never holds the client key.

const base = location.pathname.replace(/\/?$/, "/"); // …/picker/SESSION/TOKEN/received/
const $ = (id) => document.getElementById(id);

/** A client API answer through the person's paths; throws with the server's message. */
async function clientAnswer(path) {
  const response = await fetch(base + path, { credentials: "same-origin" });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message || `${response.status} ${response.statusText}`);
  return data;
}

/** The person's path to a baseUrl's content: `received/v1/media/{item}/{expiry}` + `=…`. */
function viaPerson(baseUrl, parameters) {
  const [item, expiry] = new URL(baseUrl).pathname.split("/").slice(-2);
  return `${base}v1/media/${encodeURIComponent(item)}/${encodeURIComponent(expiry)}${parameters}`;
}

function describe(item) {
  const file = item.mediaFile;
  const meta = file.mediaFileMetadata || {};
  const size = meta.width && meta.height ? `${meta.width} × ${meta.height}` : "";
  return [item.type === "VIDEO" ? "Video" : "Photo", size, file.mimeType].filter(Boolean).join(" · ");
}

function card(item, index) {
  const li = document.createElement("li");
  li.className = "received-item";
  li.dataset.itemId = item.id;
  const image = document.createElement("img");
  image.className = "received-thumb";
  image.alt = item.mediaFile.filename;
  image.width = 128;
  image.height = 128;
  image.src = viaPerson(item.mediaFile.baseUrl, "=w256-h256-c");
  const name = document.createElement("span");
  name.className = "received-name";
  name.textContent = `${index + 1}. ${item.mediaFile.filename}`;
  const what = document.createElement("span");
  what.className = "received-what";
  what.textContent = describe(item);
  const download = document.createElement("a");
  download.className = "received-download";
  download.href = viaPerson(item.mediaFile.baseUrl, item.type === "VIDEO" ? "=dv" : "=d");
  download.download = item.mediaFile.filename;
  download.textContent = item.type === "VIDEO" ? "Video (=dv)" : "Original (=d)";
  download.setAttribute("aria-label", `Download ${item.mediaFile.filename}`);
  li.append(image, name, what, download);
  return li;
}

function curlLines(session, origin) {
  return [
    `KEY=…   # the client key serve printed`,
    `curl -s -H "Authorization: Bearer $KEY" ${origin}/v1/sessions/${session.id}`,
    `curl -s -H "Authorization: Bearer $KEY" "${origin}/v1/mediaItems?sessionId=${session.id}"`,
    `curl -s -H "Authorization: Bearer $KEY" -o thumb.jpg "BASE_URL=w256-h256-c"`,
    `curl -s -H "Authorization: Bearer $KEY" -o original.jpg "BASE_URL=d"`,
  ].join("\n");
}

try {
  const session = await clientAnswer("v1/session");
  const pages = [];
  const items = [];
  if (session.mediaItemsSet) {
    let token = "";
    do {
      const page = await clientAnswer(`v1/mediaItems?sessionId=${encodeURIComponent(session.id)}&pageSize=100${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`);
      pages.push(page);
      items.push(...(page.mediaItems || []));
      token = page.nextPageToken || "";
    } while (token);
  }
  $("received-items").replaceChildren(...items.map(card));
  $("received-status").textContent = !session.mediaItemsSet
    ? "The person has not pressed Done yet: a program polling this session sees mediaItemsSet: false and waits."
    : items.length === 1 ? "The program received 1 item." : `The program received ${items.length} items.`;
  $("received-json").textContent = [`GET /v1/sessions/${session.id}`, JSON.stringify(session, null, 2),
    ...pages.map((page) => `GET /v1/mediaItems\n${JSON.stringify(page, null, 2)}`)].join("\n\n");
  $("received-curl").textContent = curlLines(session, location.origin);
  const all = $("download-all");
  all.hidden = items.length === 0;
  all.addEventListener("click", () => {
    for (const link of document.querySelectorAll(".received-download")) link.click();
  });
} catch (error) {
  $("received-status").textContent = `The session's picks cannot be shown: ${error.message}`;
  $("received-status").dataset.kind = "error";
}
