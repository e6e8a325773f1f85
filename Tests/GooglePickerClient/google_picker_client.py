#!/usr/bin/env python3
"""A Google Photos Picker API client, written only from Google's public reference, run against this server.

The client half (class PhotosPicker) knows nothing of AssetsPicker: it is what an app written for
https://photospicker.googleapis.com/v1 does (sessions.create, sessions.get polled at
pollingConfig.pollInterval until mediaItemsSet or timeoutIn, mediaItems.list with pageSize and
pageToken, each mediaFile.baseUrl with =wW-hH, =wW-hH-c, =wW, =hH, =d, =dv, sessions.delete; errors
as {"error": {"code", "message", "status"}}). The only changes: the API's base URL is this server's
`/v1`, and the bearer token is the server's client key.

The person's half drives a real headless Chromium (selenium): the person signs in with the one-time
link `serve` printed, opens `pickerUri + "/autoclose"` in a window a script opened, picks (through
the picker page's own API, from inside the signed-in page) and presses Done; the window closes
itself. Then every byte the client fetches is decoded: JPEG sizes from the frame header, crops,
the original's dimensions, no GPS directory entries in `=d` (parsed from the EXIF TIFF structure;
the originals on disk, under --library, do have them), the video's bytes and a Range of them.

Run by scripts/google-client.sh, which starts the server:
    python3 Tests/GooglePickerClient/google_picker_client.py --base http://127.0.0.1:PORT --key KEY \
        --sign-in SIGN_IN_URL --library DEMO_LIBRARY_FOLDER
Needs selenium (PyPI) and Debian's chromium and chromedriver on PATH.
"""

import argparse
import datetime
import json
import math
import re
import shutil
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

try:
    from selenium import webdriver
except ImportError:
    sys.exit("google-client: selenium is missing: run scripts/install-e2e-dependencies.sh")
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT_SECONDS = 60


# --- The client, as written from the Picker API reference ----------------------------------------


class ApiError(Exception):
    """An answer in Google's error form."""

    def __init__(self, http_status, code, status, message):
        super().__init__(f"{http_status} {status}: {message}")
        self.http_status, self.code, self.status, self.message = http_status, code, status, message


def parse_duration(text):
    """A google.protobuf.Duration in JSON: '5s', '1799.5s'."""
    if not re.fullmatch(r"\d+(\.\d{1,9})?s", text):
        raise ValueError(f"not a Duration: {text!r}")
    return float(text[:-1])


def parse_time(text):
    """An RFC 3339 timestamp as Google writes them ('2024-01-02T03:04:05.123Z')."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


class PhotosPicker:
    """sessions and mediaItems of the Google Photos Picker API."""

    def __init__(self, token, base_url="https://photospicker.googleapis.com/v1"):
        self.base_url = base_url.rstrip("/")
        self.token = token

    def _call(self, method, url, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        if self.token is not None:
            request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                detail = json.loads(payload)["error"]
            except (ValueError, KeyError, TypeError):
                raise ApiError(error.code, None, None, payload[:300].decode("utf-8", "replace")) from None
            raise ApiError(error.code, detail.get("code"), detail.get("status"), detail.get("message")) from None

    def _json(self, method, path, body=None):
        _, _, payload = self._call(method, self.base_url + path, body)
        return json.loads(payload)

    def create_session(self, max_item_count=None):
        body = {} if max_item_count is None else {"pickingConfig": {"maxItemCount": str(max_item_count)}}
        return self._json("POST", "/sessions", body)

    def get_session(self, session_id):
        return self._json("GET", f"/sessions/{urllib.parse.quote(session_id)}")

    def delete_session(self, session_id):
        return self._json("DELETE", f"/sessions/{urllib.parse.quote(session_id)}")

    def list_media_items(self, session_id, page_size=None, page_token=None):
        query = {"sessionId": session_id}
        if page_size is not None:
            query["pageSize"] = str(page_size)
        if page_token:
            query["pageToken"] = page_token
        return self._json("GET", "/mediaItems?" + urllib.parse.urlencode(query))

    def poll_until_set(self, session):
        """Polls as the reference says: every pollInterval, until mediaItemsSet or timeoutIn is over."""
        config = session["pollingConfig"]
        deadline = time.monotonic() + parse_duration(config["timeoutIn"])
        while True:
            session = self.get_session(session["id"])
            if session.get("mediaItemsSet"):
                return session
            if time.monotonic() > deadline:
                raise TimeoutError("the user did not finish picking")
            time.sleep(parse_duration(session["pollingConfig"]["pollInterval"]))

    def fetch(self, base_url, parameters, byte_range=None):
        headers = {"Range": f"bytes={byte_range[0]}-{byte_range[1]}"} if byte_range else {}
        return self._call("GET", base_url + parameters, headers=headers)


# --- Decoding what comes back --------------------------------------------------------------------


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def jpeg_size(data):
    """(width, height) from the JPEG's start-of-frame segment."""
    check(data[:2] == b"\xff\xd8", f"not a JPEG: {data[:4]!r}")
    position = 2
    while position + 4 <= len(data):
        check(data[position] == 0xFF, f"broken JPEG marker at {position}")
        marker = data[position + 1]
        length = int.from_bytes(data[position + 2:position + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            return int.from_bytes(data[position + 7:position + 9], "big"), int.from_bytes(data[position + 5:position + 7], "big")
        position += 2 + length
    raise Failed("no start-of-frame in the JPEG")


def exif_orientation_and_gps_entries(data):
    """(orientation, number of GPS directory entries) from a JPEG's EXIF (TIFF structure); (1, 0) without EXIF."""
    position = 2
    while position + 4 <= len(data) and data[position] == 0xFF and data[position + 1] not in (0xDA, 0xD9):
        length = int.from_bytes(data[position + 2:position + 4], "big")
        payload = data[position + 4:position + 2 + length]
        if data[position + 1] == 0xE1 and payload.startswith(b"Exif\0\0"):
            tiff = payload[6:]
            order = "little" if tiff[:2] == b"II" else "big"
            number = lambda at, size: int.from_bytes(tiff[at:at + size], order)
            ifd0 = number(4, 4)
            orientation, gps_entries = 1, 0
            for index in range(number(ifd0, 2)):
                entry = ifd0 + 2 + index * 12
                tag = number(entry, 2)
                if tag == 0x0112:
                    orientation = number(entry + 8, 2)
                elif tag == 0x8825:
                    gps_entries = number(number(entry + 8, 4), 2)
            return orientation, gps_entries
        position += 2 + length
    return 1, 0


def exif_exposure(data):
    """A JPEG's exposure as Google's photoMetadata gives it (focalLength, apertureFNumber,
    isoEquivalent, exposureTime as a Duration string), from its EXIF's Exif directory; only the
    values the file records."""
    position = 2
    while position + 4 <= len(data) and data[position] == 0xFF and data[position + 1] not in (0xDA, 0xD9):
        length = int.from_bytes(data[position + 2:position + 4], "big")
        payload = data[position + 4:position + 2 + length]
        if data[position + 1] == 0xE1 and payload.startswith(b"Exif\0\0"):
            tiff = payload[6:]
            order = "little" if tiff[:2] == b"II" else "big"
            number = lambda at, size: int.from_bytes(tiff[at:at + size], order)
            def entries(ifd):
                return {number(ifd + 2 + i * 12, 2): ifd + 2 + i * 12 for i in range(number(ifd, 2))}
            exif_ifd = next((number(entry + 8, 4) for tag, entry in entries(number(4, 4)).items() if tag == 0x8769), None)
            if exif_ifd is None:
                return {}
            found = entries(exif_ifd)
            def rational(tag):
                if tag not in found or number(found[tag] + 2, 2) != 5:
                    return None
                at = number(found[tag] + 8, 4)
                numerator, denominator = number(at, 4), number(at + 4, 4)
                return numerator / denominator if denominator and numerator else None
            exposure = {}
            if rational(0x920A):
                exposure["focalLength"] = rational(0x920A)
            if rational(0x829D):
                exposure["apertureFNumber"] = rational(0x829D)
            if 0x8827 in found and number(found[0x8827] + 8, 2):
                exposure["isoEquivalent"] = number(found[0x8827] + 8, 2)
            if rational(0x829A):
                exposure["exposureTime"] = rational(0x829A)
            return exposure
        position += 2 + length
    return {}


def upright(size, orientation):
    return (size[1], size[0]) if orientation in (5, 6, 7, 8) else size


# --- The person, in a real browser ---------------------------------------------------------------


def make_driver():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,860"):
        options.add_argument(argument)
    chromium, chromedriver = shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")
    check(chromium and chromedriver, "chromium and chromedriver must be on PATH (scripts/install-e2e-dependencies.sh)")
    options.binary_location = chromium
    return webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))


PICK_IN_PAGE = """
const [wanted, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const api = location.pathname.replace(/\\/?$/, "/") + "api/";
  const call = async (method, path) => {
    const response = await fetch(api + path, {method, headers: {"Content-Type": "application/json"}});
    if (!response.ok) throw new Error(method + " " + path + ": " + response.status);
    return response.json();
  };
  const albums = (await call("GET", "albums")).albums;
  const items = (await call("GET", "albums/" + encodeURIComponent(albums[0].id) + "/assets?limit=500")).items;
  const pick = [];
  for (const [kind, count] of wanted) {
    pick.push(...items.filter(item => item.filename.toLowerCase().endsWith(kind)).slice(0, count));
  }
  for (const item of pick) await call("POST", "selection/" + item.id);
  return pick.map(item => ({id: item.id, filename: item.filename}));
})().then(done, error => done({error: String(error)}));
"""


def person_picks(driver, sign_in_url, picker_uri, wanted):
    """Signs in, opens pickerUri/autoclose in a script-opened window, picks, presses Done; the window closes."""
    driver.get(sign_in_url)
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "album-list"))
    first = driver.current_window_handle
    driver.execute_script("window.open(arguments[0], 'picker')", picker_uri + "/autoclose")
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: len(d.window_handles) == 2)
    driver.switch_to.window([h for h in driver.window_handles if h != first][0])
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "album-list"))
    check("autoclose" in driver.current_url, f"pickerUri/autoclose led to {driver.current_url}")
    driver.set_script_timeout(WAIT_SECONDS)
    picked = driver.execute_async_script(PICK_IN_PAGE, wanted)
    check(isinstance(picked, list), f"picking in the page failed: {picked}")
    # The page shows the picks it reloads from the server; then Done, as the person presses it.
    driver.refresh()
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: d.find_element(By.ID, "done-button").is_enabled())
    driver.find_element(By.ID, "done-button").click()
    WebDriverWait(driver, WAIT_SECONDS).until(lambda d: len(d.window_handles) == 1)
    driver.switch_to.window(first)
    return picked


# --- The scenario --------------------------------------------------------------------------------


def expect_error(call, http_status, status):
    try:
        call()
    except ApiError as error:
        check(error.http_status == http_status and error.code == http_status and error.status == status and error.message,
              f"expected {http_status} {status}, got {error.http_status} {error.code} {error.status}: {error.message}")
        return
    raise Failed(f"expected {http_status} {status}, the call succeeded")


def step(text):
    print(f"google-client: {text}", flush=True)


def run(arguments):
    api = arguments.base.rstrip("/") + "/v1"
    picker = PhotosPicker(arguments.key, base_url=api)
    library = Path(arguments.library)

    step("errors: no token and a wrong one are 401 UNAUTHENTICATED")
    expect_error(lambda: PhotosPicker(None, api).create_session(), 401, "UNAUTHENTICATED")
    expect_error(lambda: PhotosPicker("wrong-" + arguments.key, api).create_session(), 401, "UNAUTHENTICATED")

    step("errors: a bad body is 400 INVALID_ARGUMENT")
    expect_error(lambda: picker._json("POST", "/sessions", {"pickingConfig": {"maxItemCount": "many"}}), 400, "INVALID_ARGUMENT")
    expect_error(lambda: picker._json("POST", "/sessions", {"pickingConfig": {"maxItemCount": "0"}}), 400, "INVALID_ARGUMENT")

    step("sessions.create {} and sessions.delete; a deleted session is 404 NOT_FOUND")
    spare = picker.create_session()
    check(spare["pickingConfig"]["maxItemCount"] == "2000", f"default maxItemCount: {spare['pickingConfig']}")
    check(picker.delete_session(spare["id"]) == {}, "sessions.delete answers {}")
    expect_error(lambda: picker.get_session(spare["id"]), 404, "NOT_FOUND")
    expect_error(lambda: picker.delete_session(spare["id"]), 404, "NOT_FOUND")
    expect_error(lambda: picker.list_media_items("no-such-session"), 404, "NOT_FOUND")

    step("sessions.create with pickingConfig.maxItemCount '6'")
    wanted = [[".jpg", 4], [".png", 1], [".mp4", 1]]
    session = picker.create_session(max_item_count=6)
    check(session["pickingConfig"]["maxItemCount"] == "6", f"pickingConfig: {session['pickingConfig']}")
    check(session["mediaItemsSet"] is False, "a new session has mediaItemsSet false")
    interval, timeout = parse_duration(session["pollingConfig"]["pollInterval"]), parse_duration(session["pollingConfig"]["timeoutIn"])
    check(0 < interval <= 60 and 60 < timeout <= 3600, f"pollingConfig: {session['pollingConfig']}")
    check(parse_time(session["expireTime"]) > datetime.datetime.now(datetime.timezone.utc), f"expireTime {session['expireTime']}")
    check(session["pickerUri"].startswith(arguments.base.rstrip("/") + "/"), f"pickerUri {session['pickerUri']}")

    step("errors: mediaItems.list before the user is done is 400 FAILED_PRECONDITION")
    expect_error(lambda: picker.list_media_items(session["id"]), 400, "FAILED_PRECONDITION")

    step("the person signs in, opens pickerUri/autoclose, picks 4 JPEGs, a PNG and a video, presses Done; the page closes")
    driver = make_driver()
    try:
        picked = person_picks(driver, arguments.sign_in, session["pickerUri"], wanted)
    finally:
        driver.quit()
    check(len(picked) == 6, f"picked {picked}")

    step("sessions.get polled at pollInterval until mediaItemsSet")
    session = picker.poll_until_set(session)

    step("mediaItems.list with pageSize 2: three pages, the picks in order")
    items, token, pages = [], None, 0
    while True:
        page = picker.list_media_items(session["id"], page_size=2, page_token=token)
        check(len(page["mediaItems"]) <= 2, f"a page of {len(page['mediaItems'])} items")
        items += page["mediaItems"]
        pages += 1
        token = page.get("nextPageToken")
        if not token:
            break
    check(pages == 3, f"{pages} pages of pageSize 2 for 6 items")
    check([i["id"].upper() for i in items] == [p["id"].upper() for p in picked], f"listed {[i['id'] for i in items]}, picked {picked}")

    located = 0
    for item in items:
        media = item["mediaFile"]
        metadata = media["mediaFileMetadata"]
        base = media["baseUrl"]
        parse_time(item["createTime"])
        check(item["createTime"].endswith("Z"), f"createTime {item['createTime']}")
        width, height = metadata["width"], metadata["height"]
        name = media["filename"]
        step(f"{item['type']} {name} ({media['mimeType']}, {width}x{height}): baseUrl parameters")
        if item["type"] == "PHOTO":
            check("photoMetadata" in metadata, f"{name}: photoMetadata")
            given = metadata["photoMetadata"]
            check(set(given) <= {"focalLength", "apertureFNumber", "isoEquivalent", "exposureTime"}, f"{name}: photoMetadata {given}")
            duration = given.get("exposureTime")
            check(duration is None or re.fullmatch(r"[0-9]+(\.[0-9]{1,9})?s", duration), f"{name}: exposureTime {duration!r} is not a Duration")
            _, _, body = picker.fetch(base, "=w200-h200")
            fitted = jpeg_size(body)
            check(max(fitted) == 200 and abs(fitted[0] / fitted[1] - width / height) < 0.02, f"{name} =w200-h200 is {fitted}")
            _, _, body = picker.fetch(base, "=w120-h50-c")
            check(jpeg_size(body) == (120, 50), f"{name} =w120-h50-c is {jpeg_size(body)}")
            _, _, body = picker.fetch(base, "=w100")
            check(jpeg_size(body)[0] == 100, f"{name} =w100 is {jpeg_size(body)}")
            _, _, body = picker.fetch(base, "=h80")
            check(jpeg_size(body)[1] == 80, f"{name} =h80 is {jpeg_size(body)}")
            _, headers, body = picker.fetch(base, "=d")
            orientation, gps = exif_orientation_and_gps_entries(body)
            check(upright(jpeg_size(body), orientation) == (width, height), f"{name} =d is {jpeg_size(body)} (orientation {orientation})")
            check(gps == 0, f"{name} =d still has {gps} GPS entries")
            original = next(library.rglob(name), None)
            check(original is not None, f"{name} is not under {library}")
            if original.suffix.lower() == ".jpg":
                # The exposure the original records, and nothing it does not.
                recorded = exif_exposure(original.read_bytes())
                check(set(given) == set(recorded), f"{name}: photoMetadata {given}, the file records {recorded}")
                for key, value in recorded.items():
                    listed = float(given[key].rstrip("s")) if key == "exposureTime" else given[key]
                    check(abs(listed - value) <= 1e-6 * max(1, value), f"{name}: {key} {given[key]}, the file records {value}")
                if exif_orientation_and_gps_entries(original.read_bytes())[1] > 0:
                    located += 1
        else:
            check(metadata.get("videoMetadata", {}).get("processingStatus") == "READY", f"{name}: videoMetadata {metadata}")
            fps = metadata["videoMetadata"].get("fps")
            check(isinstance(fps, (int, float)) and 0 < fps <= 1000, f"{name}: videoMetadata.fps {fps!r}")
            _, _, frame = picker.fetch(base, "=w160-h160")
            check(max(jpeg_size(frame)) == 160, f"{name} =w160-h160 is {jpeg_size(frame)}")
            _, headers, video = picker.fetch(base, "=dv")
            check(video[4:8] == b"ftyp" and len(video) > 1000, f"{name} =dv is not an MP4: {video[:12]!r}")
            check(video == next(library.rglob(name)).read_bytes(), f"{name} =dv differs from the file")
            status, headers, part = picker.fetch(base, "=dv", byte_range=(100, 199))
            check(status == 206 and part == video[100:200], f"{name} Range 100-199 answered {status}, {len(part)} bytes")
            check(headers.get("Content-Range") == f"bytes 100-199/{len(video)}", f"Content-Range {headers.get('Content-Range')}")
    check(located >= 2, f"only {located} of the picked originals had a location to remove")

    step("a baseUrl needs the token, and works only for its own session")
    expect_error(lambda: PhotosPicker(None, api).fetch(items[0]["mediaFile"]["baseUrl"], "=w64-h64"), 401, "UNAUTHENTICATED")
    other = picker.create_session()
    foreign = items[0]["mediaFile"]["baseUrl"].replace(session["id"], other["id"])
    expect_error(lambda: picker.fetch(foreign, "=w64-h64"), 404, "NOT_FOUND")
    picker.delete_session(other["id"])

    step("sessions.delete: its baseUrls stop at once")
    check(picker.delete_session(session["id"]) == {}, "sessions.delete answers {}")
    expect_error(lambda: picker.fetch(items[0]["mediaFile"]["baseUrl"], "=w64-h64"), 404, "NOT_FOUND")
    expect_error(lambda: picker.list_media_items(session["id"]), 404, "NOT_FOUND")
    step("passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--key", required=True, help="the server's client key (the bearer token)")
    parser.add_argument("--sign-in", required=True, help="the one-time sign-in link serve printed")
    parser.add_argument("--library", required=True, help="the library folder (to check the originals had a location)")
    arguments = parser.parse_args()
    try:
        run(arguments)
    except (Failed, ApiError, TimeoutError) as error:
        print(f"google-client: FAILED: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
