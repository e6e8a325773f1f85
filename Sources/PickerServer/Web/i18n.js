// Every string the pages show (the picker, index.html, and the demo client, demo.html), in
// English and Simplified Chinese. Static elements name their string with data-i18n (text),
// data-i18n-label (aria-label); code calls t(key, values).

const strings = {
  en: {
    pageTitle: "Choose photos",
    pickerActions: "Picks",
    cancelHeading: "Cancel picking?",
    cancelQuestion: "Your {count} picks will not be sent, and the program gets nothing.",
    cancelQuestionOne: "Your pick will not be sent, and the program gets nothing.",
    keepPicking: "Keep picking",
    discardPicks: "Cancel and send nothing",
    seeReceived: "See what the program received",
    folderLabel: "{title}, folder of {count} albums",
    folderLabelOne: "{title}, folder of {count} album",
    albumsCount: "{count} albums",
    albumsCountOne: "{count} album",
    noAlbumsTitle: "No photos in this library yet",
    noAlbumsHint: "Put photos or videos into the library's folder ({name}); they show here as they arrive.",
    noAlbumsHintImport: "Add one with “Add a photo”, or put photos or videos into the library's folder ({name}); they show here as they arrive.",
    emptyLibrary: "No photos yet",
    emptyAlbum: "This album is empty",
    emptyAlbumHint: "Photos added to this album in the library show here. Go back to pick from All Photos.",
    emptyFolderHint: "This folder of the library holds no photos or videos itself. Go back to pick from another album.",
    emptyFavorites: "No favourites yet",
    emptyFavoritesHint: "Photos marked as favourites in the library show here. Go back to pick from All Photos.",
    emptyNoVideos: "No videos here",
    emptyNoPhotos: "No photos here",
    emptyFilterHint: "Choose Show: All to see everything in this album.",
    emptyNarrowedHint: "The program asked for these only. Go back to look in another album.",
    albumsTitle: "Albums",
    selectedLabel: "Selected",
    language: "Language",
    cancel: "Cancel",
    done: "Done",
    back: "Back",
    gridTools: "Sort and filter",
    newestFirst: "Newest first",
    oldestFirst: "Oldest first",
    show: "Show",
    mediaAll: "All",
    mediaPhoto: "Photos",
    mediaVideo: "Videos",
    gridLabel: "Photos and videos",
    browserLabel: "Photo viewer",
    close: "Close",
    previous: "Previous",
    next: "Next",
    select: "Select",
    selected: "Selected",
    open: "Open",
    newAlbum: "New album",
    albumName: "Name",
    create: "Create",
    upload: "Add a photo",
    items: "{count} items",
    itemsOne: "{count} item",
    albumLabel: "{title}, {count} items",
    albumLabelOne: "{title}, {count} item",
    photo: "Photo",
    video: "Video",
    cellLabel: "{kind}, {name}, {date}",
    cellLabelRemote: "{kind}, {name}, {date}, original in the cloud",
    cloudBadge: "Original in the cloud",
    transferProgress: "{received} of {total}",
    loading: "Loading…",
    loadFailed: "Could not load: {message}",
    maximumReached: "You can pick up to {count} items.",
    maximumReachedOne: "You can pick only {count} item.",
    uploaded: "{name} was added to the library's Imports folder and selected; it is in All Photos and Imports.",
    uploadedNotSelected: "{name} was added to the library's Imports folder (in All Photos and Imports); not selected: the selection is full.",
    uploading: "Uploading {name}…",
    albumCreated: "Album “{title}” created.",
    finishedComplete: "Done. Your choice was sent; you can close this page.",
    finishedCancelled: "Cancelled. Nothing was sent; you can close this page.",
    finishedEnded: "This picker session has ended; you can close this page.",
    videoLabel: "Video {name}",
    position: "{index} of {total}",
    droppedPreselected: "{count} of the items chosen before are no longer available.",
    backToDemo: "Back to the demo client page",
    demoTitle: "Try it as a program would",
    demoIntro: "This page is a client program that runs in your browser. It does what an app does with the client API: creates a picker session, opens its pickerUri for you to pick, polls the session until your picks are set, lists them and fetches each through its baseUrl. It sends its requests to /demo/v1/…, which the server answers with the client API's own code, for the sessions you make here only: the client key never comes to the browser.",
    demoReady: "Choose the session's settings and press Pick photos, as a program would.",
    demoStepCreate: "1. Create a session",
    demoCreateHint: "A program sends POST /v1/sessions with its client key; the answer holds the session's id, its pickerUri and how often to poll.",
    demoMaxItems: "Most items",
    demoOrder: "Order",
    demoOrderPick: "As picked",
    demoPick: "Pick photos",
    demoCreating: "Creating a session…",
    demoOpening: "Opening the picker…",
    demoCreatedHere: "This page sent POST /v1/sessions; the server answered:",
    demoCreatedBefore: "This session is one of yours: made on this page before, or by the server when it started (the one its sign-in link opened).",
    demoAnswerLabel: "The answers, as JSON",
    demoStepPick: "2. You pick",
    demoPickHint: "The program shows or opens pickerUri; you pick there and press Done. Here it opens in this tab, and after Done the picker comes back to this page.",
    demoOpenPicker: "Open the picker",
    demoStepPoll: "3. Poll until the picks are set",
    demoPollHint: "The program asks GET /v1/sessions/… every pollInterval until mediaItemsSet is true (or timeoutIn has passed).",
    demoFollowing: "Following the session as a program does…",
    demoPolling: "Asked {count} times: mediaItemsSet is false, so the program asks again in {seconds} s.",
    demoPollingOne: "Asked once: mediaItemsSet is false, so the program asks again in {seconds} s.",
    demoPicksSet: "Asked {count} times: mediaItemsSet is true.",
    demoPicksSetOne: "Asked once: mediaItemsSet is true.",
    demoTimedOut: "timeoutIn has passed: the session ended before the picks were set.",
    demoStepList: "4. List the picks",
    demoListHint: "GET /v1/mediaItems?sessionId=…, page after page (nextPageToken back as pageToken). Each thumbnail below is the item's baseUrl with =w256-h256-c appended.",
    demoItemsLabel: "The picked items",
    demoReceived: "The program received {count} items.",
    demoReceivedOne: "The program received 1 item.",
    demoNothing: "The program received no items: the picking was cancelled, or the picks are no longer in the library.",
    demoStepFetch: "5. Fetch the originals",
    demoFetchHint: "A photo's baseUrl with =d appended is its original without its location; a video's with =dv is its bytes.",
    demoDownloadAll: "Download all",
    demoDownloading: "Downloading {count} files, one after another…",
    demoDownloadingOne: "Downloading 1 file…",
    demoOriginal: "Original (=d)",
    demoVideoBytes: "Video (=dv)",
    demoDownload: "Download {name}",
    demoStepDelete: "6. Delete the session",
    demoDeleteHint: "DELETE /v1/sessions/… answers {}; its baseUrls stop working at once. Sessions also expire by themselves.",
    demoDelete: "Delete the session",
    demoDeleted: "Deleted: the session and its baseUrls answer 404 from now on.",
    demoStepTerminal: "The same from a terminal",
    demoTerminalHint: "With the client key serve printed in place of $KEY (it never comes to this page):",
    demoCurlLabel: "The same requests with curl",
    demoKeyComment: "the client key serve printed",
    demoNotOwn: "This session cannot be shown here: it is not one of yours, or it ended or was deleted (404, as the client API answers an unknown session).",
    demoFailed: "The demo client cannot go on: {message}",
  },
  "zh-CN": {
    pageTitle: "选择照片",
    pickerActions: "所选项目",
    cancelHeading: "取消选择？",
    cancelQuestion: "你选择的 {count} 项不会发送，程序什么也收不到。",
    keepPicking: "继续选择",
    discardPicks: "取消，不发送",
    seeReceived: "查看程序收到的内容",
    folderLabel: "{title}，包含 {count} 个相簿的文件夹",
    albumsCount: "{count} 个相簿",
    noAlbumsTitle: "此图库中还没有照片",
    noAlbumsHint: "把照片或视频放进图库的文件夹（{name}），它们会随即显示在这里。",
    noAlbumsHintImport: "用“添加照片”添加一张，或把照片或视频放进图库的文件夹（{name}），它们会随即显示在这里。",
    emptyLibrary: "还没有照片",
    emptyAlbum: "此相簿是空的",
    emptyAlbumHint: "在图库中加入此相簿的照片会显示在这里。返回可从“所有照片”中选择。",
    emptyFolderHint: "图库的这个文件夹本身没有照片或视频。返回可从其他相簿中选择。",
    emptyFavorites: "还没有个人收藏",
    emptyFavoritesHint: "在图库中标为个人收藏的照片会显示在这里。返回可从“所有照片”中选择。",
    emptyNoVideos: "这里没有视频",
    emptyNoPhotos: "这里没有照片",
    emptyFilterHint: "将“显示”设为“全部”即可看到此相簿中的所有内容。",
    emptyNarrowedHint: "程序只要求这类项目。返回可在其他相簿中查找。",
    albumsTitle: "相簿",
    selectedLabel: "已选",
    language: "语言",
    cancel: "取消",
    done: "完成",
    back: "返回",
    gridTools: "排序和筛选",
    newestFirst: "最新的在前",
    oldestFirst: "最早的在前",
    show: "显示",
    mediaAll: "全部",
    mediaPhoto: "照片",
    mediaVideo: "视频",
    gridLabel: "照片和视频",
    browserLabel: "照片查看器",
    close: "关闭",
    previous: "上一张",
    next: "下一张",
    select: "选择",
    selected: "已选择",
    open: "打开",
    newAlbum: "新建相簿",
    albumName: "名称",
    create: "创建",
    upload: "添加照片",
    items: "{count} 项",
    albumLabel: "{title}，{count} 项",
    photo: "照片",
    video: "视频",
    cellLabel: "{kind}，{name}，{date}",
    cellLabelRemote: "{kind}，{name}，{date}，原图在云端",
    cloudBadge: "原图在云端",
    transferProgress: "{received} / {total}",
    loading: "正在载入…",
    loadFailed: "无法载入：{message}",
    maximumReached: "最多可以选择 {count} 项。",
    uploaded: "已将 {name} 添加到图库的 Imports 文件夹并选择；可在“所有照片”和 Imports 中找到。",
    uploadedNotSelected: "已将 {name} 添加到图库的 Imports 文件夹（在“所有照片”和 Imports 中）；已达到选择上限，未选择。",
    uploading: "正在上传 {name}…",
    albumCreated: "已创建相簿“{title}”。",
    finishedComplete: "已完成。你的选择已发送，可以关闭此页面。",
    finishedCancelled: "已取消。没有发送任何内容，可以关闭此页面。",
    finishedEnded: "此选择会话已结束，可以关闭此页面。",
    videoLabel: "视频 {name}",
    position: "第 {index} 项，共 {total} 项",
    droppedPreselected: "之前选择的项目中有 {count} 项已不可用。",
    backToDemo: "返回演示客户端页面",
    demoTitle: "像程序一样试用",
    demoIntro: "此页面是一个在浏览器中运行的客户端程序。它像应用一样使用客户端 API：创建选择会话，打开其 pickerUri 供你选择，轮询会话直到你的选择已设定，列出所选项目，并通过各自的 baseUrl 获取。它把请求发往 /demo/v1/…，服务器用客户端 API 自己的代码作答，且只针对你在这里创建的会话：客户端密钥从不进入浏览器。",
    demoReady: "选择会话的设置，然后像程序一样按“选择照片”。",
    demoStepCreate: "1. 创建会话",
    demoCreateHint: "程序用客户端密钥发送 POST /v1/sessions；回答中有会话的 id、pickerUri 以及轮询间隔。",
    demoMaxItems: "最多项目数",
    demoOrder: "顺序",
    demoOrderPick: "按选择顺序",
    demoPick: "选择照片",
    demoCreating: "正在创建会话…",
    demoOpening: "正在打开选择器…",
    demoCreatedHere: "此页面发送了 POST /v1/sessions；服务器的回答：",
    demoCreatedBefore: "这是你自己的会话：之前在此页面创建，或由服务器启动时创建（登录链接打开的那个）。",
    demoAnswerLabel: "JSON 格式的回答",
    demoStepPick: "2. 你来选择",
    demoPickHint: "程序显示或打开 pickerUri；你在那里选择并按“完成”。这里它在本标签页中打开，完成后选择器会回到此页面。",
    demoOpenPicker: "打开选择器",
    demoStepPoll: "3. 轮询直到选择已设定",
    demoPollHint: "程序每隔 pollInterval 请求一次 GET /v1/sessions/…，直到 mediaItemsSet 为 true（或超过 timeoutIn）。",
    demoFollowing: "正在像程序一样跟踪会话…",
    demoPolling: "已请求 {count} 次：mediaItemsSet 为 false，程序将在 {seconds} 秒后再次请求。",
    demoPicksSet: "已请求 {count} 次：mediaItemsSet 为 true。",
    demoTimedOut: "已超过 timeoutIn：会话在选择设定之前结束。",
    demoStepList: "4. 列出所选项目",
    demoListHint: "GET /v1/mediaItems?sessionId=…，逐页读取（把 nextPageToken 作为 pageToken 传回）。下面每张缩略图都是项目的 baseUrl 加上 =w256-h256-c。",
    demoItemsLabel: "所选项目",
    demoReceived: "程序收到了 {count} 项。",
    demoNothing: "程序没有收到任何项目：选择已取消，或所选项目已不在图库中。",
    demoStepFetch: "5. 获取原件",
    demoFetchHint: "照片的 baseUrl 加上 =d 是去除位置信息的原件；视频的 baseUrl 加上 =dv 是视频文件本身。",
    demoDownloadAll: "全部下载",
    demoDownloading: "正在逐个下载 {count} 个文件…",
    demoOriginal: "原件 (=d)",
    demoVideoBytes: "视频 (=dv)",
    demoDownload: "下载 {name}",
    demoStepDelete: "6. 删除会话",
    demoDeleteHint: "DELETE /v1/sessions/… 回答 {}；其 baseUrl 立即失效。会话也会自行过期。",
    demoDelete: "删除会话",
    demoDeleted: "已删除：从现在起，该会话及其 baseUrl 都回答 404。",
    demoStepTerminal: "在终端中做同样的事",
    demoTerminalHint: "把 $KEY 换成 serve 打印的客户端密钥（它从不进入此页面）：",
    demoCurlLabel: "用 curl 发送同样的请求",
    demoKeyComment: "serve 打印的客户端密钥",
    demoNotOwn: "无法在此显示此会话：它不是你的会话，或已结束、已删除（404，与客户端 API 对未知会话的回答相同）。",
    demoFailed: "演示客户端无法继续：{message}",
    "smartAlbum:allPhotos": "所有照片",
    "smartAlbum:favorites": "个人收藏",
    "smartAlbum:videos": "视频",
    "smartAlbum:recentlyAdded": "最近添加",
  },
};

let current = "en";
const listeners = new Set();

/** The first of the browser's preferred languages that the page speaks (any zh → zh-CN). */
export function preferredLanguage() {
  for (const tag of navigator.languages || [navigator.language]) {
    const lower = (tag || "").toLowerCase();
    if (lower.startsWith("zh")) return "zh-CN";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

/**
 * The string `key` in the current language with `{name}` replaced from `values`. When
 * `values.count` is 1 and the language has a `keyOne` string (English), that one is used.
 */
export function t(key, values = {}) {
  const table = strings[current];
  const singular = values.count === 1 && table[`${key}One`];
  const template = singular || (table[key] ?? strings.en[key] ?? key);
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/**
 * An album's title: the library's smart albums (All Photos, Favorites, …: the album's `smartKind`,
 * whatever the backend calls it) in the page's language, the others as named.
 */
export function albumTitle(album) {
  return (album.smartKind && strings[current][`smartAlbum:${album.smartKind}`]) ?? album.title;
}

/** Switches the language, re-labels the static elements and tells the listeners. */
export function setLanguage(tag) {
  current = strings[tag] ? tag : "en";
  document.documentElement.lang = current;
  document.title = t("pageTitle");
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  }
  for (const listener of listeners) listener(current);
}

/** Calls `listener` after every language change (views re-render their dynamic text). */
export function onLanguageChange(listener) {
  listeners.add(listener);
}

/** A byte count for people: "4.2 MB" (decimal units, as file managers show them). */
export function formatBytes(bytes) {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(current, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

// Making a DateTimeFormat costs far more than formatting with one: one per language, kept.
const dateFormats = new Map();

/** A date for a cell's label, e.g. "12 Mar 2024, 14:05". */
export function formatDate(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  let format = dateFormats.get(current);
  if (!format) {
    format = new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" });
    dateFormats.set(current, format);
  }
  return format.format(date);
}

/** A video's duration as m:ss or h:mm:ss. */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
