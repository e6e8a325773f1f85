#!/usr/bin/env python3
"""Replays issue 12's probes against a picker server and prints probe -> expected -> got.

By default it starts its own server (`assets-picker serve`) over a copy of the corpus with
hostile entries planted in it (a link to /, a link out of the library, xcsn0g01.png), with
short limits so that the timeout probes take seconds. Each probe is a function registered with
@probe(name, expected): it returns what it got and whether that is what was expected. To add
one, write a function below; the table grows by itself.

The person signs in through the link `serve` prints; the picker's requests carry that cookie.

Usage: attack.py --binary PATH [--corpus DIR] [--only SUBSTRING]
"""
import argparse
import collections
import concurrent.futures
import select
import http.client
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

PROBES = []


def probe(name, expected):
    """Registers a probe: a function of the Target returning (got: str, ok: bool)."""
    def register(function):
        PROBES.append((name, expected, function))
        return function
    return register


class Target:
    """The server under attack: where it listens, its picker API, its library folder."""

    def __init__(self, binary, library, server, announcement, limits):
        self.binary, self.library, self.server, self.limits = binary, library, server, limits
        self.port = announcement["port"]
        # A key given through the environment is never printed: the attacker's harness knows it.
        self.client_key = announcement.get("clientKey") or os.environ["ASSETS_PICKER_CLIENT_KEY"]
        self.picker_path = urllib.parse.urlparse(announcement["pickerUri"]).path
        # The person signs in through the one-time link the server printed; the picker's
        # requests carry the cookie that sets, and the page's own Origin.
        self.cookie = sign_in(announcement["signInUrl"]) if announcement.get("signInUrl") else None
        self.origin = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = dict(headers or {})
        if self.cookie and path.startswith("/picker/"):
            headers["Cookie"] = self.cookie
            headers["Origin"] = self.origin
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), data

    def api(self, method, path, json_body=None, headers=None, body=None):
        if json_body is not None:
            body = json.dumps(json_body).encode()
            headers = dict(headers or {}, **{"Content-Type": "application/json"})
        return self.request(method, self.picker_path + "api/" + path, body=body, headers=headers)

    def items(self):
        status, _, data = self.api("GET", "albums/smart%3Aall/assets?limit=500")
        return json.loads(data)["items"] if status == 200 else []

    def item(self, filename):
        return next((item for item in self.items() if item["filename"] == filename), None)

    def rss_kb(self, field="VmRSS"):
        with open(f"/proc/{self.server.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        return 0


def sign_in(url):
    """Opens a one-time sign-in link as the person's browser would; returns the cookie it sets."""
    parts = urllib.parse.urlparse(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
    response = connection.getresponse()
    response.read()
    connection.close()
    cookie = response.getheader("Set-Cookie")
    return cookie.split(";", 1)[0] if cookie else None


def raw_socket(target, timeout=15):
    sock = socket.create_connection(("127.0.0.1", target.port), timeout=timeout)
    return sock


def read_to_close(sock):
    """What the server sends until it closes; '' and False when the guard runs out first."""
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return received.decode("latin-1"), True
            received += chunk
    except socket.timeout:
        return received.decode("latin-1"), False
    except ConnectionResetError:
        return received.decode("latin-1"), True


def status_line(text):
    return text.split("\r\n", 1)[0] if text else "(nothing)"


def error_message(data):
    try:
        return json.loads(data)["error"]["message"]
    except Exception:
        return repr(data[:60])


# ---- H1, M1, L: the client is not the person ---------------------------------------------------

def client(target, method, path, json_body=None, headers=None):
    """A request as the client program: its bearer key, never the person's cookie (the client
    API is outside /picker/, where Target.request adds it)."""
    headers = dict(headers or {}, Authorization=f"Bearer {target.client_key}")
    body = None
    if json_body is not None:
        body = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    return target.request(method, path, body=body, headers=headers)


def new_session(target, body=None, headers=None):
    status, _, data = client(target, "POST", "/v1/sessions", body if body is not None else {}, headers)
    return json.loads(data) if status in (200, 201) else None


def picked_base_url(target, victim):
    """The path of the baseUrl a client receives for `victim` (an item), picked alone in a new
    session and Done by the person; None when any step fails."""
    session = new_session(target)
    if not session or not victim:
        return None
    picker = urllib.parse.urlparse(session["pickerUri"]).path
    target.request("POST", picker + f"api/selection/{victim['id']}", body=b"")
    target.request("POST", picker + "api/done", body=b"")
    status, _, data = client(target, "GET", f"/v1/mediaItems?sessionId={session['id']}")
    if status != 200:
        return None
    return urllib.parse.urlparse(json.loads(data)["mediaItems"][0]["mediaFile"]["baseUrl"]).path


@probe("H1 client key + pickerUri, no sign-in", "every picker route 401/403, nothing of the library")
def client_as_person(target):
    session = new_session(target)
    if not session:
        return "could not create a session", False
    base = urllib.parse.urlparse(session["pickerUri"]).path
    asset = (target.items() or [{"id": "00000000-0000-0000-0000-000000000000"}])[0]["id"]
    attempts = [("GET", base, None), ("GET", base + "api/session", None), ("GET", base + "api/albums", None),
                ("GET", base + "api/albums/smart%3Aall/assets?limit=60", None),
                ("GET", base + f"api/assets/{asset}/image?w=256&h=256&mode=fill", None),
                ("POST", base + f"api/selection/{asset}", b""), ("PUT", base + "api/selection", json.dumps({"ids": [asset]}).encode()),
                ("POST", base + "api/done", b""), ("GET", base + "api/events", None)]
    statuses = []
    for method, path, body in attempts:
        connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
        connection.request(method, path, body=body, headers={"Authorization": f"Bearer {target.client_key}",
                                                              "Origin": f"http://127.0.0.1:{target.port}"})
        response = connection.getresponse()
        data = response.read(65536)
        connection.close()
        leaked = asset.encode() in data or b"A_camera_exif" in data
        statuses.append(response.status if not leaked else f"{response.status} LEAK")
    ok = all(status in (401, 403) for status in statuses)
    return " ".join(str(status) for status in statuses), ok


@probe("H1 the one-time sign-in link used twice", "the second use refused (401)")
def sign_in_link_reused(target):
    status, _, _ = target.request("GET", target.picker_path)
    link = None
    for _ in range(100):  # the server prints a new link for a picker page opened without sign-in
        line = target.server.stdout.readline()
        if "signInUrl" in line:
            link = json.loads(line)["signInUrl"]
            break
    if not link:
        return "no new link printed", False
    first = sign_in(link)
    parts = urllib.parse.urlparse(link)
    connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
    connection.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
    second = connection.getresponse()
    second.read()
    connection.close()
    return f"first {'cookie' if first else 'no cookie'}, second {second.status}", bool(first) and second.status == 401


@probe("H1 a change from another origin", "403, nothing changed")
def cross_origin(target):
    # The person's own cookie, sent by a page of another origin (what SameSite=Strict and the
    # Origin check together stop).
    connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
    connection.request("PUT", target.picker_path + "api/selection", body=json.dumps({"ids": []}).encode(),
                       headers={"Content-Type": "application/json", "Cookie": target.cookie or "",
                                "Origin": "http://evil.example"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return str(response.status), response.status == 403


@probe("M1 preselecting guessed ids", "the answer is the same for a real id and a made-up one")
def preselection_oracle(target):
    real = (target.items() or [{}])[0].get("id")
    if not real:
        return "no asset listed", False
    made_up = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    answers = []
    for ids in ([real], [made_up]):
        session = new_session(target, {"preselected": ids})
        if not session:
            return "could not create a session", False
        answers.append({key: value for key, value in session.items() if key not in ("id", "pickerUri", "expireTime", "pollingConfig")})
    return ("same" if answers[0] == answers[1] else f"differ: {answers}"), answers[0] == answers[1]


@probe("M2 a photo moved to Recently Deleted", "gone from the picker; Recently Deleted not browsable (404)")
def recently_deleted(target):
    victim = next((item for item in target.items() if item["filename"].lower().endswith(".jpg")), None)
    if not victim:
        return "no photo listed", False
    deleted = subprocess.run([target.binary, "delete", "--library", target.library, "--asset", victim["id"] + "/L0/001"],
                             capture_output=True, text=True, env=target.environment)
    if deleted.returncode != 0:
        return f"delete failed: {deleted.stderr.strip()}", False
    try:
        listed = any(item["id"] == victim["id"] for item in target.items())
        status, _, _ = target.api("GET", "albums/smart%3Arecently-deleted/assets?limit=60")
        picked, _, _ = target.api("POST", f"selection/{victim['id']}", body=b"")
        return f"listed {listed}, Recently Deleted {status}, pick {picked}", not listed and status == 404 and picked == 404
    finally:
        subprocess.run([target.binary, "restore", "--library", target.library, "--asset", victim["id"] + "/L0/001"],
                       capture_output=True, env=target.environment)


@probe("L Host header in pickerUri", "the server's own address, never the request's Host")
def host_header(target):
    session = new_session(target, headers={"Host": "evil.example:80"})
    if not session:
        return "could not create a session", False
    host = urllib.parse.urlparse(session["pickerUri"]).netloc
    return host, host == f"127.0.0.1:{target.port}"


@probe("L error bodies", "no absolute server path in any error")
def error_paths(target):
    bodies = []
    for item in target.items():
        if item["filename"].endswith((".png", ".jpg", ".jpeg")):
            status, _, data = target.api("GET", f"assets/{item['id']}/image?w=64&h=64&mode=fill")
            if status >= 400:
                bodies.append(data)
    leaked = [body[:80] for body in bodies if target.library.encode() in body or b"/tmp/" in body]
    return f"{len(bodies)} errors, {len(leaked)} with a path", bool(bodies) and not leaked


@probe("L a repeated id in PUT selection", "200, counted once")
def repeated_id(target):
    real = (target.items() or [{}])[0].get("id")
    if not real:
        return "no asset listed", False
    status, _, data = target.api("PUT", "selection", {"ids": [real, real]})
    count = json.loads(data).get("selection", {}).get("count") if status == 200 else None
    target.api("PUT", "selection", {"ids": []})
    return f"{status}, count {count}", status == 200 and count == 1


# ---- M3: connections ---------------------------------------------------------------------------

@probe("M3 idle connection", "closed after the idle timeout")
def idle_connection(target):
    sock = raw_socket(target, timeout=target.limits["idle"] * 10)
    start = time.monotonic()
    text, closed = read_to_close(sock)
    sock.close()
    return f"{'closed' if closed else 'still open'} after {time.monotonic() - start:.1f} s", closed and not text


@probe("M3 slowloris header", "408, connection closed")
def slowloris(target):
    sock = raw_socket(target, timeout=target.limits["header"] * 10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    deadline = time.monotonic() + target.limits["header"] * 10
    # A byte every half second, as a slowloris client sends, until the server answers.
    while time.monotonic() < deadline and not select.select([sock], [], [], 0.5)[0]:
        sock.sendall(b"x")
    text, closed = read_to_close(sock)
    sock.close()
    return f"{status_line(text)}, {'closed' if closed else 'open'}", text.startswith("HTTP/1.1 408") and closed


@probe("M3 connections per address, each serving a picker page's event stream", "one over the cap gets 503")
def connection_cap(target):
    cap = target.limits["connections"]
    held = []
    events = f"GET {target.picker_path}api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {target.cookie}\r\n\r\n".encode()
    try:
        for _ in range(cap):
            sock = raw_socket(target)
            sock.sendall(events)
            sock.recv(65536)
            held.append(sock)
        extra = raw_socket(target)
        text, closed = read_to_close(extra)
        extra.close()
        return f"{status_line(text)}", text.startswith("HTTP/1.1 503")
    finally:
        for sock in held:
            sock.close()
        # The server frees their places as it sees the closes; the next probes need them back.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            probe_socket = raw_socket(target)
            probe_socket.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            text, _ = read_to_close(probe_socket)
            probe_socket.close()
            if not text.startswith("HTTP/1.1 503"):
                break
            time.sleep(0.05)


# ---- M4: uploads --------------------------------------------------------------------------------

def upload(target, size, chunked=False, name="big.jpg"):
    """Streams `size` bytes as an upload; returns (status line, seconds)."""
    sock = raw_socket(target, timeout=120)
    path = f"{target.picker_path}api/upload?filename={name}"
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
    if target.cookie:
        head += f"Cookie: {target.cookie}\r\nOrigin: {target.origin}\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
    start = time.monotonic()
    block = b"\xff" * (1 << 20)
    try:
        sock.sendall(head.encode())
        sent = 0
        while sent < size:
            part = block[: min(len(block), size - sent)]
            sock.sendall(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
            sent += len(part)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # refused early: the answer is waiting
    try:
        first = sock.recv(65536)  # the status line: how long the answer took
    except OSError:
        first = b""
    seconds = time.monotonic() - start
    sock.close()
    return status_line(first.decode("latin-1")), seconds


@probe("M4 upload over the cap (Content-Length)", "413 before the body is sent")
def upload_declared(target):
    sock = raw_socket(target, timeout=10)
    size = (target.limits["upload_mb"] + 1) << 20
    head = (f"POST {target.picker_path}api/upload?filename=big.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: {size}\r\n")
    if target.cookie:
        head += f"Cookie: {target.cookie}\r\nOrigin: {target.origin}\r\n"
    start = time.monotonic()
    sock.sendall((head + "\r\n").encode())
    try:
        line = status_line(sock.recv(65536).decode("latin-1"))
    except socket.timeout:
        line = "(no answer within 10 s)"
    sock.close()
    return f"{line} in {time.monotonic() - start:.2f} s, no body sent", " 413 " in line + " "


@probe("M4 upload over the cap (chunked)", "413")
def upload_chunked(target):
    line, _ = upload(target, (target.limits["upload_mb"] + 1) << 20, chunked=True)
    return line, " 413 " in line + " "


@probe("M4 4 uploads of 200 MB at once", "2 received, 2 refused 503; RSS grows < 64 MB")
def upload_memory(target):
    before = target.rss_kb()
    peak = [before]
    results = []
    done = threading.Event()

    def watch():
        while not done.wait(0.05):
            peak[0] = max(peak[0], target.rss_kb())
    threading.Thread(target=watch, daemon=True).start()
    threads = [threading.Thread(target=lambda: results.append(upload(target, 200 << 20, name="huge.jpg")[0]))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    grown = (peak[0] - before) >> 10
    refused = sum(" 503 " in line + " " for line in results)
    return f"{sorted(line.split(' ', 1)[1] for line in results)}, RSS +{grown} MB", refused == 2 and grown < 64


# ---- M5: symbolic links and shutdown -------------------------------------------------------------

@probe("M5 link to / in the library", "nothing outside the library listed")
def link_out(target):
    items = target.items()
    outside = [item["filename"] for item in items if item["filename"] in ("outside.jpg",)]
    return f"{len(items)} items, outside: {outside or 'none'}", not outside and len(items) > 0


# ---- M6: image --out ------------------------------------------------------------------------------

@probe("M6 image --out /dev/full", "refused; /dev/full still a device")
def out_dev_full(target):
    item = target.item("jhead__sony.jpg")
    result = subprocess.run([target.binary, "image", "--library", target.library, "--asset", item["localIdentifier"],
                             "--size", "64x64", "--out", "/dev/full"], capture_output=True, text=True)
    still_device = os.path.exists("/dev/full") and os.stat("/dev/full").st_mode & 0o170000 == 0o020000
    message = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "(no message)"
    return f"exit {result.returncode}: {message[:70]}", result.returncode != 0 and still_device


# ---- M7: amplification ----------------------------------------------------------------------------

def cpu_seconds(target):
    with open(f"/proc/{target.server.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@probe("M7 prefetch 43 ids at 16384²", "400 before any decode")
def prefetch_huge(target):
    ids = [item["id"] for item in target.items() if item["mediaType"] == "photo"]
    body = {"ids": (ids * 43)[:43], "w": 16384, "h": 16384, "mode": "fill"}
    before = cpu_seconds(target)
    status, _, data = target.api("POST", "prefetch", json_body=body)
    time.sleep(1)  # what a decode would cost shows in the next second's CPU time
    spent = cpu_seconds(target) - before
    return f"{status} ({error_message(data)[:50]}), {spent:.2f} CPU-s", status == 400 and spent < 0.5


@probe("M7 prefetch 501 ids", "400")
def prefetch_many(target):
    ids = [item["id"] for item in target.items()]
    status, _, data = target.api("POST", "prefetch", json_body={"ids": (ids * 501)[:501], "w": 64, "h": 64})
    return f"{status} ({error_message(data)[:50]})", status == 400


@probe("M7 image at 16384²", "400 naming the parameter")
def image_huge(target):
    item = target.item("jhead__sony.jpg")
    status, _, data = target.api("GET", f"assets/{item['id']}/image?w=16384&h=16384&mode=fit")
    return f"{status} ({error_message(data)[:50]})", status == 400


@probe("M7 one session floods uncached renders", "over its budget 429 in one line (Retry-After on tooManyRenders); another session served")
def render_budget(target):
    budget = target.limits["renders"]
    photos = [target.item("big.png")]  # a 12-MP PNG: each render decodes it whole, ~0.2 s
    other = new_session(target)
    other_path = urllib.parse.urlparse(other["pickerUri"]).path if other else None
    answers, others = [], []
    width = min(6, target.limits["connections"] - 2)  # one connection left for the other session

    def ask(path, item, size, sharp):
        # A sharp upgrade (X-Image-Upgrade) is the least urgent; a first image may take its place.
        headers = {"X-Image-Upgrade": "1"} if sharp else {}
        status, response_headers, data = target.request(
            "GET", f"{path}api/assets/{item['id']}/image?w={size}&h={size}&mode=fit&delivery=high", headers=headers)
        return status, response_headers, data

    for round_ in range(5):  # renders are tens of ms: a round or two puts more than the budget in flight
        start = threading.Barrier(width + 1)

        def flood(index):
            start.wait()
            return ask(target.picker_path, photos[0], 600 + round_ * 16 + index, sharp=index < width - 2)

        def elsewhere():
            start.wait()
            return ask(other_path, photos[0], 599 - round_, sharp=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=width + 1) as pool:
            futures = [pool.submit(flood, index) for index in range(width)]
            aside = pool.submit(elsewhere)
            answers += [future.result() for future in futures]
            others.append(aside.result())
        if any(status == 429 for status, _, _ in answers):
            break
    refusals = [(headers, data) for status, headers, data in answers if status == 429]
    codes = {}
    well_formed = True
    for headers, data in refusals:
        try:
            error = json.loads(data)["error"]
        except Exception:
            well_formed = False
            continue
        codes[error.get("code")] = codes.get(error.get("code"), 0) + 1
        one_line = "\n" not in error.get("message", "\n") and "/" not in error.get("message", "/")
        retry = error.get("code") != "tooManyRenders" or headers.get("Retry-After") == "1"
        well_formed = well_formed and one_line and retry and error.get("code") in ("tooManyRenders", "renderSuperseded")
    served = sum(1 for status, _, _ in answers if status == 200)
    other_ok = bool(others) and all(status == 200 for status, _, _ in others)
    got = (f"budget {budget}: {len(answers)} asked, {served} served, 429s {codes or 'none'}; "
           f"other session {[status for status, _, _ in others]}")
    return got, bool(refusals) and well_formed and served >= 1 and other_ok


# ---- L: errors, validators, damaged files ---------------------------------------------------------

# Files whose headers read but whose pixels fail to decode, each format with its own message:
# truncated copies of corpus files (made by make_library), and one the corpus has.
TRUNCATED = ["E_formats/libtiff__minisblack-1c-16b.tiff", "E_formats/pillow__flower.webp", "C_pngsuite/basn2c08.png",
             "E_formats/libheif__example.avif", "A_camera_exif/jhead__sony.jpg", "E_formats/ljt__testorig12.jpg"]
HOSTILE = ["trunc-" + os.path.basename(path) for path in TRUNCATED] + ["pillow__truncated_jpeg.jpg", "pillow__truncated_image.png"]


@probe("L concurrent failing decodes", "each 422 names its own reason")
def concurrent_errors(target):
    items = [target.item(name) for name in HOSTILE]
    items = [item for item in items if item]  # those whose headers could be read are in the library

    def answer(item, size):
        for _ in range(200):  # over the session's render budget: ask again, as the page does
            status, _, data = target.api("GET", f"assets/{item['id']}/image?w={size}&h={size}&mode=fit")
            if status != 429:
                break
            time.sleep(0.02)
        return status, error_message(data) if status != 200 else "an image"
    alone = {item["id"]: answer(item, 60) for item in items}
    mismatches, lock = [], threading.Lock()

    def hammer(item, size):
        got = answer(item, size)
        if got != alone[item["id"]]:
            with lock:
                mismatches.append(f"{item['filename']}: {got} vs {alone[item['id']]}")
    work = [(item, 61 + round_) for round_ in range(6) for item in items]
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(6, target.limits["connections"] - 1)) as pool:
        list(pool.map(lambda job: hammer(*job), work))
    for mismatch in mismatches[:5]:
        print("  " + mismatch, file=sys.stderr)
    failing = [item for item in items if alone[item["id"]][0] == 422]
    own = all(item["filename"] in alone[item["id"]][1] for item in failing)
    return (f"{len(failing)} failing files, each naming itself: {own}; {len(work)} requests 6 at a time, "
            f"{len(mismatches)} with another answer", not mismatches and own and len(failing) >= 3)


@probe("L If-Range across a replaced original", "404 until a rescan (never a splice), then 200 with the whole new file")
def if_range_splice(target):
    item = target.item("replace-me.jpg")
    status, headers, old = target.api("GET", f"assets/{item['id']}/original")
    tag = headers.get("ETag")
    path = os.path.join(target.library, "Probes", "replace-me.jpg")
    new = open(os.path.join(target.library, "Probes", "replacement.bin"), "rb").read()
    staged = path + ".tmp"
    with open(staged, "wb") as file:
        file.write(new)
    os.rename(staged, path)
    before, _, _ = target.api("GET", f"assets/{item['id']}/original", headers={"Range": "bytes=0-99", "If-Range": tag})
    # The index learns of the new version (another process's rescan, heard within a second).
    subprocess.run([target.binary, "index", target.library], capture_output=True, env=target.environment)
    status, body = 0, b""
    for _ in range(50):
        status, headers, body = target.api("GET", f"assets/{item['id']}/original", headers={"Range": "bytes=0-99", "If-Range": tag})
        if status != 404:
            break
        time.sleep(0.1)
    whole = body == new
    return f"before the rescan {before}; after it {status}, {len(body)} bytes, {'the new file' if whole else 'NOT the new file'}", \
        before == 404 and status == 200 and whole


@probe("L xcsn0g01.png (bad IDAT CRC) on every path", "422 every time")
def same_answer(target):
    item = target.item("xcsn0g01.png")
    statuses = []
    for round_ in range(3):
        for size in (16, 32, 50, 256):
            for delivery in ("fast", "high"):
                status, _, _ = target.api("GET", f"assets/{item['id']}/image?w={size}&h={size}&mode=fill&delivery={delivery}")
                statuses.append(status)
        target.api("POST", "prefetch", json_body={"ids": [item["id"]], "w": 64, "h": 64})
    counts = {status: statuses.count(status) for status in set(statuses)}
    return f"{counts}", set(statuses) == {422}


# ---- issue 26: every door ---------------------------------------------------------------------------

def spellings(path):
    """Spellings of a path that a router dropping empty segments, or a careless gate, might treat alike."""
    head, _, rest = path.lstrip("/").partition("/")
    return ["/" + path, "//" + path.lstrip("/"), path.replace("/", "//", 2), path + "/", "/./" + path.lstrip("/"),
            "/x/../" + path.lstrip("/"), "/%70" + path.lstrip("/")[1:], "/" + head.upper() + "/" + rest,
            "/" + head + "%2F" + rest, path + "?", path + "#x"]


@probe("I26-1 a picker route spelled otherwise (//picker/…, /picker//…, %2F, case, dots), with the client key",
       "every spelling 401/404, nothing of the library")
def picker_spellings(target):
    session = new_session(target)
    if not session:
        return "could not create a session", False
    base = urllib.parse.urlparse(session["pickerUri"]).path
    asset = (target.items() or [{"id": "00000000-0000-0000-0000-000000000000"}])[0]["id"]
    statuses = collections.Counter()
    leaks = 0
    for method, route in [("GET", "api/albums"), ("GET", f"api/assets/{asset}/original"), ("POST", f"api/selection/{asset}"),
                          ("POST", "api/done")]:
        for path in spellings(base + route):
            connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
            connection.request(method, path, body=b"" if method == "POST" else None,
                               headers={"Authorization": f"Bearer {target.client_key}", "Origin": f"http://127.0.0.1:{target.port}"})
            response = connection.getresponse()
            data = response.read(65536)
            connection.close()
            statuses[response.status] += 1
            leaks += asset.encode() in data or b"Camera" in data
    ok = set(statuses) <= {401, 404} and leaks == 0
    return " ".join(f"{status}x{count}" for status, count in sorted(statuses.items())) + (f", {leaks} leaks" if leaks else ""), ok


@probe("I26-F2 as many silent sockets as an address may hold (everyone on loopback is 127.0.0.1)", "a real request still answered")
def silent_sockets(target):
    cap = target.limits["connections"]
    silent = [raw_socket(target) for _ in range(cap)]
    try:
        time.sleep(0.2)
        status, _, _ = client(target, "GET", "/v1/sessions/none")
        closed = 0
        for sock in silent:
            sock.settimeout(0.2)
            try:
                closed += sock.recv(16) == b""
            except OSError:
                pass
        return f"client {status}, {closed} silent sockets closed to make room", status == 404 and closed >= 1
    finally:
        for sock in silent:
            sock.close()


@probe("I26-3 1,000 connections from 10 addresses to a server with 256 open files", "it stays under its open-file limit; it still answers")
def open_file_exhaustion(target):
    port_probe = socket.socket()
    port_probe.bind(("127.0.0.1", 0))
    port = port_probe.getsockname()[1]
    port_probe.close()
    child = subprocess.Popen(["/bin/sh", "-c", 'ulimit -n 256 && exec "$0" "$@"', target.binary, "serve", "--library", target.library,
                              "--backend", "folder", "--port", str(port), "--json", "--log-level", "critical"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=target.environment)
    sockets = []
    try:
        child.stdout.readline()
        for host in range(2, 12):
            for _ in range(100):
                try:
                    sock = socket.socket()
                    sock.settimeout(5)
                    sock.bind((f"127.0.0.{host}", 0))
                    sock.connect(("127.0.0.1", port))
                    sockets.append(sock)
                except OSError:
                    break
        time.sleep(1)
        descriptors = len(os.listdir(f"/proc/{child.pid}/fd"))
        for sock in sockets:
            sock.close()
        sockets = []
        alive = child.poll() is None
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/openapi.json")
        answered = connection.getresponse().status
        connection.close()
        return f"{descriptors} files open in the server under its limit of 256, alive {alive}, then {answered}", \
            alive and answered == 200 and descriptors < 256
    finally:
        for sock in sockets:
            sock.close()
        child.kill()
        child.wait()


@probe("I26-5 an asset deleted by another process (assets-picker delete while serve runs)",
       "its image and original 404 within 2 s")
def deleted_elsewhere(target):
    victim = next((item for item in target.items() if item["filename"].lower().endswith(".jpg")), None)
    if not victim:
        return "no photo listed", False
    for path in (f"assets/{victim['id']}/image?w=64&h=64&mode=fill", f"assets/{victim['id']}/original"):
        target.api("GET", path)
    deleted = subprocess.run([target.binary, "delete", "--library", target.library, "--asset", victim["id"] + "/L0/001"],
                             capture_output=True, text=True, env=target.environment)
    if deleted.returncode != 0:
        return f"delete failed: {deleted.stderr.strip()}", False
    try:
        start = time.monotonic()
        statuses = []
        while time.monotonic() - start < 2.5:
            statuses = [target.api("GET", path)[0] for path in (f"assets/{victim['id']}/image?w=64&h=64&mode=fill",
                                                                   f"assets/{victim['id']}/original")]
            if statuses == [404, 404]:
                break
            time.sleep(0.1)
        seconds = time.monotonic() - start
        return f"{statuses} after {seconds:.1f} s", statuses == [404, 404] and seconds <= 2.0
    finally:
        subprocess.run([target.binary, "restore", "--library", target.library, "--asset", victim["id"] + "/L0/001"],
                       capture_output=True, env=target.environment)


@probe("I26-L a file name with a newline and an escape sequence, listed by assets", "one line, no raw escape")
def hostile_name_output(target):
    listed = subprocess.run([target.binary, "assets", "--library", target.library, "--limit", "1000"],
                            capture_output=True, env=target.environment)
    text = listed.stdout.decode("utf-8", "replace")
    forged = [line for line in text.splitlines() if line.startswith("forged")]
    escape = b"\x1b" in listed.stdout
    return f"exit {listed.returncode}, raw ESC {escape}, forged lines {len(forged)}", listed.returncode == 0 and not escape and not forged


@probe("I26-L 30 guessed sign-in links", "throttled: 429 with Retry-After after 10")
def sign_in_guessing(target):
    statuses = collections.Counter()
    for _ in range(30):
        connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
        connection.request("GET", "/signin/AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA")
        response = connection.getresponse()
        response.read()
        connection.close()
        statuses[response.status] += 1
    # Refusals earlier in the run count in the same minute.
    return " ".join(f"{status}x{count}" for status, count in sorted(statuses.items())), statuses[401] <= 10 and statuses[429] >= 20


@probe("I26-L the client key given in the environment", "not printed")
def given_key_not_printed(target):
    key = "attack-given-key-" + os.urandom(8).hex()
    child = subprocess.Popen([target.binary, "serve", "--library", target.library, "--backend", "folder", "--port", "0", "--json",
                              "--log-level", "critical"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=dict(target.environment, ASSETS_PICKER_CLIENT_KEY=key))
    try:
        line = child.stdout.readline()
        return ("printed" if key in line else "not printed"), key not in line and "signInUrl" in line
    finally:
        child.kill()
        child.wait()


@probe("I26-L a baseUrl with +EXP, 00EXP, =w+64, =w064", "404 for the expiries, 400 for the sides")
def lenient_base_url(target):
    base = picked_base_url(target, next((item for item in target.items() if item["filename"].lower().endswith(".jpg")), None))
    if not base:
        return "no photo picked and listed", False
    prefix, expiry = base.rsplit("/", 1)
    got = [client(target, "GET", f"{prefix}/{spelled}=w64")[0] for spelled in ("%2B" + expiry, "00" + expiry)]
    got += [client(target, "GET", base + sides)[0] for sides in ("=w+64", "=w064")]
    got.append(client(target, "GET", base + "=w64")[0])  # the plain spelling is taken (200, or 422 for a damaged photo)
    return " ".join(map(str, got)), got[:4] == [404, 404, 400, 400] and got[4] in (200, 422)


@probe("I26-L the person's cookie with Host and Origin evil.example", "403")
def rebinding_origin(target):
    session = new_session(target)
    asset = (target.items() or [{"id": "00000000-0000-0000-0000-000000000000"}])[0]["id"]
    path = urllib.parse.urlparse(session["pickerUri"]).path + f"api/selection/{asset}"
    connection = http.client.HTTPConnection("127.0.0.1", target.port, timeout=30)
    connection.request("POST", path, body=b"", headers={"Cookie": target.cookie, "Host": f"evil.example:{target.port}",
                                                         "Origin": f"http://evil.example:{target.port}", "Sec-Fetch-Site": "same-origin"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return str(response.status), response.status == 403


@probe("I26-4 =d of a photo with its place in IPTC, a comment, XMP and GPS", "none of the place in what is sent")
def places_in_download(target):
    base = picked_base_url(target, target.item("placed.jpg"))
    if not base:
        return "no photo picked and listed", False
    status, _, body = client(target, "GET", base + "=d")
    found = [word for word in (b"Zabriskie", b"FurnaceCreek", b"Badwater", b"Stovepipe") if word in body]
    with tempfile.NamedTemporaryFile(suffix=".jpg") as sent:
        sent.write(body)
        sent.flush()
        tags = subprocess.run(["exiftool", "-j", "-a", "-G1", sent.name], capture_output=True, text=True).stdout
    gps = [key for key in json.loads(tags)[0] if "GPS" in key and "Version" not in key] if tags else ["unreadable"]
    return f"{status}, {len(body)} bytes, place words {found}, GPS tags {gps}", status == 200 and not found and not gps


@probe("I26-2 a picked photo swapped for a link out of the library after Done", "=d, =w, the person's original and image: 404, none of the outside file")
def swapped_for_link(target):
    victim = target.item("swap-me.jpg")
    base = picked_base_url(target, victim)
    # A second session, still picking, for the person's routes after the swap.
    watching = new_session(target)
    if not base or not watching:
        return "no photo picked and listed", False
    watching_path = urllib.parse.urlparse(watching["pickerUri"]).path
    path = os.path.join(target.library, "Probes", "swap-me.jpg")
    kept = path + ".kept"
    os.rename(path, kept)
    os.symlink(os.path.join(os.path.dirname(target.library), "outside", "secret.txt"), path)
    try:
        answers = [client(target, "GET", base + suffix) for suffix in ("=d", "=w64-h64", "=dv")]
        # A size not rendered before the swap: a rendition remembered from the indexed version may still be answered.
        answers += [target.request("GET", watching_path + f"api/assets/{victim['id']}/{route}") for route in ("original", "image?w=48&h=48&mode=fill")]
        statuses = [status for status, _, _ in answers]
        leaked = sum(b"OUTSIDE-SECRET" in body for _, _, body in answers)
        # =dv is a video's: a photo's is refused (400) whatever the file is now.
        return f"{statuses}, {leaked} with the outside file", statuses == [404, 404, 400, 404, 404] and leaked == 0
    finally:
        os.unlink(path)
        os.rename(kept, path)


@probe("I26-L export of a legal 255-byte file name", "exported under its name, no temporary file left")
def export_long_name(target):
    name = "L" * 251 + ".jpg"
    victim = target.item(name)
    if not victim:
        return "not listed", False
    out = tempfile.mkdtemp(prefix="attack-export-")
    try:
        done = subprocess.run([target.binary, "export", "--library", target.library, "--asset", victim["id"] + "/L0/001", "--out", out,
                               "--original"], capture_output=True, text=True, env=target.environment)
        names = os.listdir(out)
        return f"exit {done.returncode}, {names if len(names) != 1 else '1 file, ' + str(len(names[0])) + ' bytes of name'}", \
            done.returncode == 0 and names == [name]
    finally:
        shutil.rmtree(out, ignore_errors=True)


@probe("I26-F1 10,000 copies of a real id preselected, against a made-up one, 15 times each",
       "no time difference to read (medians within 2 ms)")
def preselection_timing(target):
    real = next((item["id"] for item in target.items()), None)
    if not real:
        return "no asset", False
    made_up = "00000000-0000-4000-8000-000000000000"
    times = {real: [], made_up: []}
    for _ in range(15):
        for identifier in (real, made_up):
            start = time.perf_counter()
            session = new_session(target, {"preselected": [identifier] * 10_000})
            times[identifier].append(time.perf_counter() - start)
            if session:
                client(target, "DELETE", f"/v1/sessions/{session['id']}")
    median = lambda values: sorted(values)[len(values) // 2] * 1000
    difference = median(times[real]) - median(times[made_up])
    return f"real {median(times[real]):.1f} ms, made up {median(times[made_up]):.1f} ms", abs(difference) < 2


# ---- the demo client page's outside attack (F1-F6) -------------------------------------------------

def person_headers(target, **more):
    """The person's browser on the demo client page: the cookie and this server's Origin."""
    return dict({"Cookie": target.cookie or "", "Origin": target.origin}, **more)


@probe("F1 a session body trickled a byte every 0.6 s, with the client key",
       "408 bodyTimeout about --body-timeout after the head, the connection closed")
def trickled_body(target):
    sock = raw_socket(target, timeout=30)
    sock.sendall((f"POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:{target.port}\r\nAuthorization: Bearer {target.client_key}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{").encode())
    start, received = time.monotonic(), b""
    try:
        while time.monotonic() - start < 30:
            readable, _, _ = select.select([sock], [], [], 0.6)
            if readable:
                received = sock.recv(65536)
                break
            sock.sendall(b" ")
    except OSError:
        pass
    text, closed = read_to_close(sock) if received else ("", False)
    sock.close()
    seconds = time.monotonic() - start
    answer = received.decode("latin-1") + text
    got = f"{status_line(answer)} after {seconds:.1f} s, closed {closed}"
    return got, answer.startswith("HTTP/1.1 408") and "bodyTimeout" in answer and closed and seconds < target.limits["body"] + 3


@probe("F1 Content-Length 99999999999 on the demo page's POST /demo/v1/sessions", "413 at once, the connection closed")
def declared_length_over_limit(target):
    sock = raw_socket(target, timeout=10)
    start = time.monotonic()
    headers = "".join(f"{name}: {value}\r\n" for name, value in person_headers(target).items())
    sock.sendall((f"POST /demo/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:{target.port}\r\n{headers}"
                  "Content-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{}").encode())
    text, closed = read_to_close(sock)
    sock.close()
    seconds = time.monotonic() - start
    return f"{status_line(text)} in {seconds:.2f} s, closed {closed}", text.startswith("HTTP/1.1 413") and closed and seconds < 1


@probe("F1 Transfer-Encoding: chunked with Content-Length", "400 with one line of JSON (malformedRequest)")
def chunked_with_length(target):
    sock = raw_socket(target, timeout=10)
    sock.sendall((f"POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:{target.port}\r\nAuthorization: Bearer {target.client_key}\r\n"
                  "Transfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n").encode())
    text, closed = read_to_close(sock)
    sock.close()
    body = text.split("\r\n\r\n", 1)[-1]
    return f"{status_line(text)} {body[:80]}", text.startswith("HTTP/1.1 400") and "malformedRequest" in body and closed


@probe("F3 a 4 MB 'order' echoed in the 400, by /v1/sessions and /demo/v1/sessions", "a refusal of a few hundred bytes")
def long_values_echoed(target):
    body = json.dumps({"order": "X" * 4_000_000}).encode()
    sizes = []
    for path, headers in (("/v1/sessions", {"Authorization": f"Bearer {target.client_key}"}), ("/demo/v1/sessions", person_headers(target))):
        status, _, data = target.request("POST", path, body=body, headers=dict(headers, **{"Content-Type": "application/json"}))
        sizes.append((status, len(data)))
    return " ".join(f"{status}/{size} B" for status, size in sizes), all(status == 400 and size < 600 for status, size in sizes)


@probe("F4 the person's pages at //demo/ and //picker/...", "308 to the canonical path")
def double_slash_pages(target):
    got, ok = [], True
    for path, canonical in (("//demo/?session=x", "/demo/?session=x"), ("/" + target.picker_path, target.picker_path)):
        status, headers, _ = target.request("GET", path, headers={"Cookie": target.cookie or ""})
        got.append(f"{status} {headers.get('Location')}")
        ok = ok and status == 308 and headers.get("Location") == canonical
    return ", ".join(got), ok


@probe("F5 a POST /demo/v1/sessions with Origin https://127.0.0.1:PORT (the server speaks http)", "403 crossOrigin")
def other_scheme_origin(target):
    status, _, data = target.request("POST", "/demo/v1/sessions", body=b"{}",
                                     headers=person_headers(target, Origin=f"https://127.0.0.1:{target.port}"))
    return f"{status} {error_message(data)[:60]}", status == 403


@probe("F6 a picked photo's baseUrl (=w64, =d), the picker's image", "nosniff and Cross-Origin-Resource-Policy: same-origin on each")
def media_headers(target):
    victim = target.item("jhead__sony.jpg")  # a whole camera photo (the library holds damaged ones too)
    base = picked_base_url(target, victim)
    if not base:
        return "could not pick a photo", False
    answers = [client(target, "GET", base + suffix) for suffix in ("=w64-h64", "=d")]
    answers.append(target.api("GET", f"assets/{victim['id']}/image?w=64&h=64&mode=fill"))
    got = [(status, headers.get("X-Content-Type-Options"), headers.get("Cross-Origin-Resource-Policy")) for status, headers, _ in answers]
    return " ".join(f"{s}:{n}/{c}" for s, n, c in got), all(s == 200 and n == "nosniff" and c == "same-origin" for s, n, c in got)


@probe("F side HEAD /v1/sessions with the client key", "405, as GET")
def head_sessions(target):
    statuses = [client(target, method, "/v1/sessions")[0] for method in ("HEAD", "GET")]
    return " ".join(map(str, statuses)), statuses == [405, 405]


@probe("M5 SIGTERM", "the server exits within 5 s")
def sigterm(target):
    start = time.monotonic()
    target.server.send_signal(signal.SIGTERM)
    try:
        target.server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        target.server.kill()
        return "still running after 60 s", False
    seconds = time.monotonic() - start
    return f"exited {target.server.returncode} in {seconds:.1f} s", seconds < 5


# ---- the run ---------------------------------------------------------------------------------------

def bad_crc_png(source, destination):
    data = bytearray(open(source, "rb").read())
    offset = 8
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            data[offset + 8 + length] ^= 0xFF
            break
        offset += 12 + length
    open(destination, "wb").write(data)


def big_png(path, width=4000, height=3000):
    """A 12-MP gradient PNG (none in the corpus is big): slow enough to render that renders overlap."""
    rows = bytearray()
    for y in range(height):
        rows += b"\x00" + bytes((x + y) & 0xFF for x in range(width)) * 3
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                   + chunk(b"IDAT", zlib.compress(bytes(rows), 1)) + chunk(b"IEND", b""))


def make_library(corpus, folder):
    library = os.path.join(folder, "library")
    os.makedirs(os.path.join(library, "Probes"))
    shutil.copytree(os.path.join(corpus, "A_camera_exif"), os.path.join(library, "Camera"))
    hostile = os.path.join(library, "Hostile")
    os.makedirs(hostile)
    for path in TRUNCATED:
        data = open(os.path.join(corpus, path), "rb").read()
        open(os.path.join(hostile, "trunc-" + os.path.basename(path)), "wb").write(data[: len(data) * 6 // 10])
    for name in ("pillow__truncated_jpeg.jpg", "pillow__truncated_image.png"):
        shutil.copy(os.path.join(corpus, "D_hostile", name), hostile)
    bad_crc_png(os.path.join(corpus, "C_pngsuite", "basn0g01.png"), os.path.join(library, "Probes", "xcsn0g01.png"))
    big_png(os.path.join(library, "Probes", "big.png"))
    shutil.copy(os.path.join(corpus, "A_camera_exif", "jhead__sony.jpg"), os.path.join(library, "Probes", "replace-me.jpg"))
    shutil.copy(os.path.join(corpus, "A_camera_exif", "goexif__sample1.jpg"), os.path.join(library, "Probes", "replacement.bin"))
    shutil.copy(os.path.join(corpus, "A_camera_exif", "goexif__sample1.jpg"),
                os.path.join(library, "Probes", "IMG_2.jpg\nforged line \x1b[31mred\x1b]0;title\x07.jpg"))
    shutil.copy(os.path.join(corpus, "A_camera_exif", "goexif__sample1.jpg"), os.path.join(library, "Probes", "swap-me.jpg"))
    shutil.copy(os.path.join(corpus, "A_camera_exif", "goexif__sample1.jpg"), os.path.join(library, "Probes", "L" * 251 + ".jpg"))
    # A photo carrying its place in IPTC, a comment and XMP, beside the EXIF GPS (exiftool writes them).
    placed = os.path.join(library, "Probes", "placed.jpg")
    shutil.copy(os.path.join(corpus, "A_camera_exif", "jhead__canon-bigend.jpg"), placed)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-IPTC:City=Zabriskie", "-IPTC:Sub-location=FurnaceCreek",
                    "-Comment=Taken at Badwater", "-XMP:City=Stovepipe", "-GPSLatitude=36.448", "-GPSLatitudeRef=N",
                    "-GPSLongitude=116.855", "-GPSLongitudeRef=W", placed], check=True)
    outside = os.path.join(folder, "outside")
    os.makedirs(outside)
    shutil.copy(os.path.join(corpus, "A_camera_exif", "goexif__sample1.jpg"), os.path.join(outside, "outside.jpg"))
    with open(os.path.join(outside, "secret.txt"), "wb") as secret:
        secret.write(b"OUTSIDE-SECRET " * 4096)
    os.symlink("/", os.path.join(library, "everything"))
    os.symlink(outside, os.path.join(library, "neighbour"))
    return library


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "../../../shared/testdata"))
    parser.add_argument("--only", help="run only the probes whose name contains this")
    args = parser.parse_args()
    limits = {"idle": 3, "header": 1, "body": 1, "connections": 8, "upload_mb": 256, "renders": 2}
    folder = tempfile.mkdtemp(prefix="attack-")
    server = None
    try:
        library = make_library(os.path.abspath(args.corpus), folder)
        # The index and the renditions live in the attack's own folder, never the user's.
        environment = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"), XDG_CACHE_HOME=os.path.join(folder, "cache"))
        index = subprocess.run([args.binary, "index", library], capture_output=True, text=True, env=environment)
        if index.returncode != 0:
            sys.exit(f"attack.py: indexing failed: {index.stderr}")
        server = subprocess.Popen(
            [args.binary, "serve", "--library", library, "--backend", "indexed", "--port", "0", "--json", "--no-watch",
             "--log-level", "error", "--idle-timeout", str(limits["idle"]), "--header-timeout", str(limits["header"]),
             "--body-timeout", str(limits["body"]),
             "--connections-per-address", str(limits["connections"]), "--max-upload-mb", str(limits["upload_mb"]),
             "--renders-per-session", str(limits["renders"])],
            stdout=subprocess.PIPE, text=True, env=environment)
        announcement = json.loads(server.stdout.readline())
        target = Target(os.path.abspath(args.binary), library, server, announcement, limits)
        target.environment = environment
        rows = []
        for name, expected, function in PROBES:
            if args.only and args.only not in name:
                continue
            try:
                got, ok = function(target)
            except Exception as error:  # a probe that breaks is a failed row, not a stopped run
                got, ok = f"probe failed: {type(error).__name__}: {error}", False
            rows.append((name, expected, got, ok))
            print(f"{'ok  ' if ok else 'FAIL'} {name}", file=sys.stderr)
        widths = [max(len(row[column]) for row in rows + [("probe", "expected", "got")]) for column in range(3)]
        print(f"{'probe':<{widths[0]}}  {'expected':<{widths[1]}}  {'got':<{widths[2]}}  result")
        for name, expected, got, ok in rows:
            print(f"{name:<{widths[0]}}  {expected:<{widths[1]}}  {got:<{widths[2]}}  {'ok' if ok else 'FAIL'}")
        return 0 if all(row[3] for row in rows) else 1
    finally:
        if server and server.poll() is None:
            server.terminate()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
