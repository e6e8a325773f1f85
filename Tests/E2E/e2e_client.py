"""The client program's side: plain HTTP with the client key."""

import json
import time
import urllib.error
import urllib.parse
import urllib.request

from e2e_common import WAIT_SECONDS, StepFailed


class Client:
    """The picker API (/v1/sessions, /v1/mediaItems; Google's Picker API wire format) as a client program uses it."""

    def __init__(self, base, key):
        self.base = base.rstrip("/")
        self.key = key

    def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.key}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()
        except urllib.error.URLError as error:
            raise StepFailed(f"{method} {self.base + path} failed: {error.reason}") from None

    def json(self, method, path, body=None, expected=200):
        status, _, payload = self.request(method, path, body)
        if status != expected:
            raise StepFailed(f"{method} {path} answered {status}, expected {expected}: {payload[:500]!r}")
        return json.loads(payload)

    def create_session(self, max_items=None, **extras):
        body = dict(extras)
        if max_items is not None:
            body["pickingConfig"] = {"maxItemCount": str(max_items)}
        return self.json("POST", "/v1/sessions", body)

    def session(self, session_id):
        return self.json("GET", f"/v1/sessions/{session_id}")

    def items(self, session_id):
        items, token = [], None
        while True:
            query = f"&pageToken={urllib.parse.quote(token)}" if token else ""
            page = self.json("GET", f"/v1/mediaItems?sessionId={urllib.parse.quote(session_id)}{query}")
            items += page.get("mediaItems", [])
            token = page.get("nextPageToken")
            if not token:
                return items


def plain_status(url, headers=None):
    """The HTTP status of a GET with only these headers (no cookie unless given)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError as error:
        raise StepFailed(f"GET {url} failed: {error.reason}") from None


def client_reaches_nothing(client, picker_uri):
    """The client, with its key and the pickerUri, gets 401 on the page and on the API it calls."""
    for path in ("", "api/session", "api/albums", "api/albums/smart%3Aall/assets"):
        status, _, body = client.request("GET", urllib.parse.urlparse(picker_uri).path + path)
        if status != 401:
            raise StepFailed(f"the client's GET of pickerUri + {path!r} answered {status}, expected 401: {body[:200]!r}")
    status, _, body = client.request("POST", urllib.parse.urlparse(picker_uri).path + "api/done", {})
    if status != 401:
        raise StepFailed(f"the client's POST of pickerUri + 'api/done' answered {status}, expected 401: {body[:200]!r}")


def jpeg_pixel_size(data):
    """(width, height) from a JPEG's start-of-frame marker."""
    if data[:2] != b"\xff\xd8":
        raise StepFailed(f"not a JPEG: starts with {data[:4]!r}")
    start_of_frame = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            raise StepFailed(f"JPEG marker expected at byte {position}, found {data[position]:#04x}")
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            position += 2
            continue
        length = int.from_bytes(data[position + 2:position + 4], "big")
        if marker in start_of_frame:
            height = int.from_bytes(data[position + 5:position + 7], "big")
            width = int.from_bytes(data[position + 7:position + 9], "big")
            return width, height
        if marker == 0xDA:  # start of scan before any frame header
            break
        position += 2 + length
    raise StepFailed("the JPEG has no start-of-frame marker")


def wait_finished(client, session):
    """Polls the session as a client does until mediaItemsSet; answers the session."""
    interval = float(session["pollingConfig"]["pollInterval"].rstrip("s"))
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        current = client.session(session["id"])
        if current["mediaItemsSet"]:
            return current
        if time.monotonic() > deadline:
            raise StepFailed(f"the session never got mediaItemsSet: {current}")
        time.sleep(min(interval, 0.5))  # the client's polling interval (capped), not a wait for the page
