// The demo client page (demo.html, at /demo/): a client program run in the person's browser. It
// does what an app does with the client API — creates a session, opens its pickerUri, polls the
// session every pollInterval until mediaItemsSet, lists the picks page by page, shows each
// through its baseUrl and downloads the originals — sending every request to /demo/v1/…, the
// server's mirror of /v1/… for the person's own sessions (DemoClientRoutes.swift). The answers
// are the client API's very bytes; the client key never comes to the browser.

import { t, setLanguage, preferredLanguage, onLanguageChange } from "./i18n.js";
import { shellWord } from "./shell-word.js";

const $ = (id) => document.getElementById(id);
// The page's canonical place on this page's origin, never built on the path as the address bar
// has it: that could start `//`, and a URL built on `//demo/` names the host `demo`.
const page = new URL("/demo/", location.origin);
const mirror = new URL("v1/", page); // …/demo/v1/: what /v1/ answers, as the person
const storedKey = (id) => `assets-picker.demo.${id}`;

/** A refused call: the status and the server's message. */
class CallError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** One client API call through the mirror: the answer's text, exactly as received, and its JSON. */
async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(new URL(path, mirror), init);
  const text = await response.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) throw new CallError(response.status, data?.error?.message || `${response.status} ${response.statusText}`);
  return { text, data };
}

/** The mirror's path of a baseUrl's content: the baseUrl's /v1/media/… under /demo/v1/, plus `parameters` (=w…, =d, =dv). */
function viaMirror(baseUrl, parameters) {
  const path = new URL(baseUrl).pathname;
  const media = path.slice(path.lastIndexOf("/v1/media/") + "/v1/".length);
  return new URL(media + parameters, mirror).href;
}

/** An answer as the program read it: the call, then its JSON (indented for reading; keys, values and order as received). */
function shown(callLine, text) {
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  return `${callLine}\n${body}`;
}

const seconds = (duration) => Number.parseFloat(duration) || 0;
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What the page knows of the session it follows; shown again in the other language on a change.
const demo = {
  id: null, created: null, session: null, sessionText: "", polls: 0, note: null, pages: [], items: [], listed: false,
  deleted: false, deletedText: "",
};

/** Says what the page is doing, in the status line: the string `key` with `values` (said again on a language change). */
let said = null;
function announce(key, values = {}, kind = "info") {
  said = { key, values, kind };
  const status = $("demo-status");
  status.textContent = t(key, values);
  status.dataset.kind = kind;
}

function fail(error) {
  if (error instanceof CallError && error.status === 404) announce("demoNotOwn", {}, "error");
  else announce("demoFailed", { message: error.message }, "error");
}

// 1. Create a session.
$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("pick-photos");
  const body = {
    pickingConfig: { maxItemCount: String(Number.parseInt($("max-items").value, 10) || 1) },
    mediaFilter: $("media-filter").value,
    order: $("order").value,
  };
  button.disabled = true;
  announce("demoCreating");
  try {
    const { text, data } = await call("POST", "sessions", body);
    // Shown again when the picker comes back here; nothing secret in it (the pickerUri is the person's to open).
    sessionStorage.setItem(storedKey(data.id), JSON.stringify({ body, answer: text }));
    history.replaceState(null, "", `?session=${encodeURIComponent(data.id)}`);
    announce("demoOpening");
    // 2. The program opens pickerUri: here in this tab, so that it works on a phone as well.
    location.assign(data.pickerUri);
  } catch (error) {
    button.disabled = false;
    fail(error);
  }
});

// Back from the picker without Done, the browser may show this page as it was left: start again from the address.
addEventListener("pageshow", (event) => {
  if (event.persisted) location.reload();
});

function showCreated() {
  $("created").hidden = false;
  $("created-note").textContent = t(demo.created ? "demoCreatedHere" : "demoCreatedBefore");
  $("created-json").hidden = !demo.created;
  if (demo.created) $("created-json").textContent = shown(`POST /v1/sessions\n${JSON.stringify(demo.created.body)}\n`, demo.created.answer);
}

function showSession() {
  const session = demo.session;
  if (!session) return;
  $("session-json").textContent = [shown(`GET /v1/sessions/${session.id}`, demo.sessionText),
    ...(demo.deletedText ? [shown(`DELETE /v1/sessions/${session.id}`, demo.deletedText)] : [])].join("\n\n");
  const picking = !session.mediaItemsSet && !demo.deleted;
  $("picker-next").hidden = !picking;
  $("picker-link").href = session.pickerUri;
  if (session.mediaItemsSet) {
    $("poll-status").textContent = t("demoPicksSet", { count: demo.polls });
  } else if (demo.note === "timedOut") {
    $("poll-status").textContent = t("demoTimedOut");
  } else {
    $("poll-status").textContent = t("demoPolling", { count: demo.polls, seconds: seconds(session.pollingConfig.pollInterval) });
  }
}

/** A pick as the program shows it: its thumbnail through the baseUrl, what it is, its download. */
function card(item, index) {
  const li = document.createElement("li");
  li.className = "demo-item";
  li.dataset.itemId = item.id;
  const file = item.mediaFile;
  const image = document.createElement("img");
  image.className = "demo-thumb";
  image.alt = file.filename;
  image.width = 128;
  image.height = 128;
  image.src = viaMirror(file.baseUrl, "=w256-h256-c");
  const name = document.createElement("span");
  name.className = "demo-name";
  name.textContent = `${index + 1}. ${file.filename}`;
  const what = document.createElement("span");
  what.className = "demo-what";
  const download = document.createElement("a");
  download.className = "demo-download button-link";
  download.href = viaMirror(file.baseUrl, item.type === "VIDEO" ? "=dv" : "=d");
  download.download = file.filename;
  li.append(image, name, what, download);
  label(li, item);
  return li;
}

/** The card's words in the page's language. */
function label(li, item) {
  const file = item.mediaFile;
  const meta = file.mediaFileMetadata || {};
  const size = meta.width && meta.height ? `${meta.width} × ${meta.height}` : "";
  const video = item.type === "VIDEO";
  li.querySelector(".demo-what").textContent = [t(video ? "video" : "photo"), size, file.mimeType].filter(Boolean).join(" · ");
  const download = li.querySelector(".demo-download");
  download.textContent = t(video ? "demoVideoBytes" : "demoOriginal");
  download.setAttribute("aria-label", t("demoDownload", { name: file.filename }));
}

function showItems() {
  if (!demo.listed) return;
  const list = $("demo-items");
  // Made once: the thumbnails are not asked for again on a language change.
  if (list.childElementCount !== demo.items.length) list.replaceChildren(...demo.items.map(card));
  else [...list.children].forEach((li, index) => label(li, demo.items[index]));
  list.hidden = demo.items.length === 0;
  $("list-status").textContent = demo.items.length === 0 ? t("demoNothing") : t("demoReceived", { count: demo.items.length });
  $("items-json").textContent = demo.pages.map((listed) => shown(listed.call, listed.text)).join("\n\n");
  $("step-fetch").hidden = demo.items.length === 0;
  $("download-all").disabled = demo.deleted;
  $("step-delete").hidden = false;
  $("delete-session").disabled = demo.deleted;
  showTerminal();
}

function showTerminal() {
  const session = demo.session;
  const api = `${session.pickerUri.slice(0, session.pickerUri.lastIndexOf("/picker/"))}/v1`;
  const auth = `-H "Authorization: Bearer $KEY"`;
  const lines = [`KEY=…   # ${t("demoKeyComment")}`, `API=${api}`];
  if (demo.created) lines.push(`curl -s ${auth} -X POST $API/sessions -d ${shellWord(JSON.stringify(demo.created.body))}`);
  lines.push(`curl -s ${auth} $API/sessions/${session.id}`, `curl -s ${auth} "$API/mediaItems?sessionId=${session.id}"`);
  const first = demo.items[0];
  if (first) {
    const download = first.type === "VIDEO" ? "=dv" : "=d";
    lines.push(`curl -s ${auth} -o thumb.jpg "${first.mediaFile.baseUrl}=w256-h256-c"`,
      `curl -s ${auth} -o ${shellWord(first.mediaFile.filename)} "${first.mediaFile.baseUrl}${download}"`);
  }
  lines.push(`curl -s ${auth} -X DELETE $API/sessions/${session.id}`);
  $("demo-curl").textContent = lines.join("\n");
  $("step-terminal").hidden = false;
}

// 3. Poll, 4. list: the session named in the address, one of the person's own.
async function follow(id) {
  demo.id = id;
  try {
    demo.created = JSON.parse(sessionStorage.getItem(storedKey(id)) || "null");
  } catch {
    demo.created = null;
  }
  showCreated();
  $("step-pick").hidden = false;
  $("step-poll").hidden = false;
  announce("demoFollowing");
  for (;;) {
    const { text, data } = await call("GET", `sessions/${encodeURIComponent(id)}`);
    demo.polls += 1;
    demo.session = data;
    demo.sessionText = text;
    showSession();
    if (data.mediaItemsSet) break;
    if (seconds(data.pollingConfig.timeoutIn) <= 0) {
      demo.note = "timedOut";
      showSession();
      return;
    }
    await wait(seconds(data.pollingConfig.pollInterval) * 1000);
  }
  $("step-list").hidden = false;
  let token = "";
  do {
    const query = `mediaItems?sessionId=${encodeURIComponent(id)}${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`;
    const { text, data } = await call("GET", query);
    demo.pages.push({ call: `GET /v1/${query}`, text });
    demo.items.push(...(data.mediaItems || []));
    token = data.nextPageToken || "";
  } while (token);
  demo.listed = true;
  showItems();
  announce(demo.items.length === 0 ? "demoNothing" : "demoReceived", { count: demo.items.length });
}

// 5. Fetch: each original in turn, as a program downloads them one after another.
$("download-all").addEventListener("click", async () => {
  const links = [...document.querySelectorAll("#demo-items .demo-download")];
  announce("demoDownloading", { count: links.length });
  for (const [index, link] of links.entries()) {
    if (index > 0) await wait(400); // browsers take one download at a time from a page's clicks
    link.click();
  }
});

// 6. Delete.
$("delete-session").addEventListener("click", async () => {
  try {
    const { text } = await call("DELETE", `sessions/${encodeURIComponent(demo.id)}`);
    demo.deleted = true;
    demo.deletedText = text;
    sessionStorage.removeItem(storedKey(demo.id));
    showSession();
    showItems();
    announce("demoDeleted");
  } catch (error) {
    fail(error);
  }
});

const languageSelect = $("language-select");
setLanguage(preferredLanguage());
languageSelect.value = document.documentElement.lang;
languageSelect.addEventListener("change", () => setLanguage(languageSelect.value));
onLanguageChange(() => {
  if (said) announce(said.key, said.values, said.kind);
  if (demo.id) showCreated();
  showSession();
  showItems();
});

const asked = new URLSearchParams(location.search).get("session");
if (asked) {
  follow(asked).catch(fail);
} else {
  announce("demoReady");
}
