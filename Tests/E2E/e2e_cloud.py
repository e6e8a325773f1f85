"""A library whose originals are in a bucket, as a person with "Optimize Storage" has it.

The grid marks every item whose original is not on the server's machine with a cloud badge (its
name in English and Simplified Chinese, clear of the pick number, in light and dark; axe finds no
violation); a photo opened large shows its degraded image at once and the original's bytes of
total while it comes (held half-way by the bucket's gate), then the sharp image, and its cell
loses the badge; leaving another photo's large view mid-way stops its transfer (the bucket sees
the server give it up); Done with picks still in the cloud answers at once, and the client lists
them and downloads one at =d.

`run_cloud(page, client, picker_uri, gate, ...)` runs against any server whose library keeps its
originals elsewhere; `gate` holds and releases the bucket's answers and counts the transfers the
server gave up (`hold()`, `release()`, `stopped()`). `run_cloud_bucket(binary, ...)` starts one:
moto's S3 server, a bucket with the photos, a relay that holds the bucket's answers after their
first bytes while the gate is closed, `assets-picker index s3://BUCKET/ --previews` through it (its
originals then removed from this machine, so every one is in the cloud), and `assets-picker serve
--library s3://BUCKET/` through it.
"""

import json
import os
import re
import secrets
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from e2e_axe import check_axe
from e2e_client import Client, wait_finished
from e2e_common import GRID_WAIT_SECONDS, WAIT_SECONDS, StepFailed
from e2e_library_server import make_library
from e2e_page import Page, make_driver, report_page

CLOUD_LABEL = {"en": "Original in the cloud", "zh-CN": "原图在云端"}


def cloud_cells(page):
    """The loaded cells: index, media, whether a cloud badge shows, its name, the cell's label."""
    return page.script("""return [...document.querySelectorAll('#grid .cell[data-asset-id]')].map(c => {
        const badge = c.querySelector('.cloud-badge');
        return {index: Number(c.dataset.index), id: c.dataset.assetId, media: c.dataset.media, badge: !!badge,
                name: badge ? badge.getAttribute('aria-label') : null, role: badge ? badge.getAttribute('role') : null,
                label: c.getAttribute('aria-label')}; });""")


def overlap(page, index, first, second):
    """Whether the boxes of `first` and `second` inside cell `index` overlap."""
    return page.script("""const c = document.querySelector(`#grid .cell[data-index="${arguments[0]}"]`);
        const a = c.querySelector(arguments[1]).getBoundingClientRect(), b = c.querySelector(arguments[2]).getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;""", index, first, second)


def open_large(page, index):
    """Opens the browser on cell `index` with its Open button."""
    page.script("document.querySelector(`#grid .cell[data-index=\"${arguments[0]}\"] .cell-open`).click()", index)
    page.wait_view("browser-view")


def transfer_shown(page):
    """The browser's transfer words and progress while an original comes; None when hidden."""
    return page.script("""const words = document.getElementById('browser-transfer'), bar = document.getElementById('browser-progress');
        return words.hidden ? null : {text: words.textContent, value: bar.hidden ? null : bar.value,
            valuetext: bar.getAttribute('aria-valuetext'), quality: document.getElementById('browser-image').dataset.quality,
            src: document.getElementById('browser-image').getAttribute('src') || ''};""")


def run_cloud(page, client, picker_uri, gate, artifacts, scenario, measured):
    scenario.begin("cloud: the grid marks every item whose original is in the cloud")
    page.driver.get(picker_uri)
    page.wait_view("albums-view")
    album = page.wait("All Photos in the album list",
                      lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list li button.album[data-album-id]"))[0]
    album.click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    cells = page.wait("the first screen's cells decorated", lambda _: [c for c in cloud_cells(page) if c["badge"]] or None)
    cells = cloud_cells(page)
    bare = [c["index"] for c in cells if not c["badge"]]
    if bare:
        raise StepFailed(f"cells of originals in the cloud without a cloud badge: {bare} of {len(cells)}")
    wrong = [c for c in cells if c["name"] != CLOUD_LABEL["en"] or c["role"] != "img" or "original in the cloud" not in c["label"]]
    if wrong:
        raise StepFailed(f"cloud badges or cell labels that do not say it: {wrong[:3]}")
    photos = [c for c in cells if c["media"] == "photo"]
    if len(photos) < 3:
        raise StepFailed(f"the cloud library should show at least 3 photos, shows {len(photos)}")
    # A pick's number sits in the other corner.
    page.cell(photos[2]["index"]).click()
    page.wait("the pick badge", lambda _: page.script(
        f"return !!document.querySelector('#grid .cell[data-index=\"{photos[2]['index']}\"] .pick-badge')"))
    if overlap(page, photos[2]["index"], ".cloud-badge", ".pick-badge"):
        raise StepFailed("the cloud badge covers the pick number")
    page.screenshots(artifacts, "cloud-grid")
    check_axe(page, "the grid of a cloud library", measured["axe"])
    page.script("const s = document.getElementById('language-select'); s.value = 'zh-CN'; s.dispatchEvent(new Event('change'));")
    page.wait("the badges in Simplified Chinese", lambda _: all(c["name"] == CLOUD_LABEL["zh-CN"] for c in cloud_cells(page) if c["badge"]))
    page.script("const s = document.getElementById('language-select'); s.value = 'en'; s.dispatchEvent(new Event('change'));")
    page.wait("the badges in English again", lambda _: all(c["name"] == CLOUD_LABEL["en"] for c in cloud_cells(page) if c["badge"]))

    scenario.begin("cloud: a photo opened large shows its degraded image at once and the original's bytes of total as they come")
    gate.hold()
    first = photos[0]
    open_large(page, first["index"])
    shown = page.wait("the transfer's bytes of total under the degraded image",
                      lambda _: (lambda t: t if t and t["value"] and t["value"] > 0 else None)(transfer_shown(page)))
    if shown["quality"] != "degraded" or not re.search(r"\d.* of .*\d", shown["text"]) or shown["valuetext"] != shown["text"]:
        raise StepFailed(f"the large view while its original comes: {shown}")
    page.screenshots(artifacts, "cloud-transfer")
    check_axe(page, "the large view while an original comes", measured["axe"])
    gate.release()
    page.wait("the sharp image once the original is here",
              lambda _: page.script("return document.getElementById('browser-image').dataset.quality") == "final", GRID_WAIT_SECONDS)
    if transfer_shown(page) is not None:
        raise StepFailed(f"the transfer's words stay once the original is here: {transfer_shown(page)}")
    page.press(Keys.ESCAPE)
    page.wait_view("grid-view")
    page.wait("the fetched photo's cell without its cloud badge, its thumbnail shown",
              lambda _: any(c["id"] == first["id"] and not c["badge"] and "cloud" not in c["label"] for c in cloud_cells(page))
              and page.script(f"const i = document.querySelector('#grid .cell[data-index=\"{first['index']}\"] img.thumb');"
                              " return !!i && i.complete && i.naturalWidth > 0;"))
    page.screenshots(artifacts, "cloud-fetched")

    scenario.begin("cloud: leaving a large view mid-way stops its transfer")
    stopped = gate.stopped()
    gate.hold()
    second = photos[1]
    open_large(page, second["index"])
    page.wait("the second photo's transfer under way", lambda _: transfer_shown(page))
    page.press(Keys.ESCAPE)
    page.wait_view("grid-view")
    page.wait("the bucket to see the transfer given up", lambda _: gate.stopped() > stopped, WAIT_SECONDS)
    gate.release()
    if not any(c["id"] == second["id"] and c["badge"] for c in cloud_cells(page)):
        raise StepFailed("the photo left mid-way lost its cloud badge")

    scenario.begin("cloud: Done with picks still in the cloud answers at once; the client downloads one at =d")
    page.cell(second["index"]).click()
    page.wait("two picks", lambda _: page.text("#selection-count") == "2")
    page.driver.find_element(By.ID, "done-button").click()
    page.wait("the finished page", lambda _: page.script("return document.getElementById('finished').dataset.state") == "complete")
    session_id = picker_uri.rstrip("/").split("/")[-2]
    wait_finished(client, client.session(session_id))
    items = client.items(session_id)
    if sorted(item["id"] for item in items) != sorted([photos[2]["id"], second["id"]]):
        raise StepFailed(f"the client lists {[item['id'] for item in items]}")
    remote = next(item for item in items if item["id"] == second["id"])
    status, headers, body = client.request("GET", remote["mediaFile"]["baseUrl"] + "=d")
    if status != 200 or not body.startswith(b"\xff\xd8"):
        raise StepFailed(f"=d of a pick still in the cloud answered {status} with {body[:40]!r}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class GatedRelay:
    """A TCP relay from the server to the bucket. While held, each answer stops after its first
    64 KiB until released; a connection the server closes while its answer is held counts as a
    transfer given up (`stopped()`)."""

    FIRST_BYTES = 64 << 10

    class Connection:
        def __init__(self):
            self.holding = False
            self.closed = False
            self.answered = 0  # bytes of the answer to the latest request

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.condition = threading.Condition()
        self.held = False
        self.given_up = 0
        threading.Thread(target=self.accept, daemon=True).start()

    def hold(self):
        with self.condition:
            self.held = True

    def release(self):
        with self.condition:
            self.held = False
            self.condition.notify_all()

    def stopped(self):
        with self.condition:
            return self.given_up

    def accept(self):
        while True:
            try:
                server, _ = self.listener.accept()
            except OSError:
                return
            bucket = socket.create_connection(("127.0.0.1", self.target_port))
            connection = self.Connection()
            threading.Thread(target=self.requests, args=(server, bucket, connection), daemon=True).start()
            threading.Thread(target=self.answers, args=(bucket, server, connection), daemon=True).start()

    def requests(self, server, bucket, connection):
        """The server's requests, passed on; its close ends the connection (a transfer given up, if held)."""
        try:
            while data := server.recv(16 << 10):
                with self.condition:
                    connection.answered = 0  # a new request (HTTP/1.1, one at a time): a new answer
                bucket.sendall(data)
        except OSError:
            pass
        with self.condition:
            if connection.holding:
                self.given_up += 1
            connection.closed = True
            self.condition.notify_all()
        self.close(server, bucket)

    def answers(self, bucket, server, connection):
        """The bucket's answers, passed on, held after their first bytes while the gate is closed."""
        try:
            while data := bucket.recv(16 << 10):
                with self.condition:
                    while self.held and connection.answered >= self.FIRST_BYTES and not connection.closed:
                        connection.holding = True
                        self.condition.wait()
                    connection.holding = False
                    if connection.closed:
                        break
                    connection.answered += len(data)
                server.sendall(data)
        except OSError:
            pass
        self.close(server, bucket)

    @staticmethod
    def close(*ends):
        for end in ends:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class BucketServer:
    """moto's S3 server with a bucket of photos, the gated relay before it, and `assets-picker serve`
    on `s3://BUCKET/` through the relay; everything in a temporary folder, stopped by stop()."""

    BUCKET = "cloud-e2e"

    def __init__(self, binary):
        self.workdir = Path(tempfile.mkdtemp(prefix="assets-picker-e2e-cloud."))
        self.processes = []
        moto = shutil.which("moto_server") or str(Path.home() / ".local/bin/moto_server")
        moto_port = free_port()
        self.log = open(self.workdir / "server.log", "w")
        self.processes.append(subprocess.Popen([moto, "-H", "127.0.0.1", "-p", str(moto_port)], stdout=self.log,
                                               stderr=self.log, start_new_session=True))
        credentials = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1"}
        self.upload(moto_port, credentials)
        self.relay = GatedRelay(moto_port)
        environment = dict(os.environ, **credentials, AWS_ENDPOINT_URL=f"http://127.0.0.1:{self.relay.port}",
                           ASSETS_PICKER_CLIENT_KEY=secrets.token_hex(24),
                           XDG_CACHE_HOME=str(self.workdir / "cache"), XDG_DATA_HOME=str(self.workdir / "data"))
        self.key = environment["ASSETS_PICKER_CLIENT_KEY"]
        self.index(binary, environment)
        serve = subprocess.Popen([binary, "serve", "--library", f"s3://{self.BUCKET}/", "--port", "0", "--json", "--no-watch"],
                                 stdout=subprocess.PIPE, stderr=self.log, env=environment, start_new_session=True)
        self.processes.append(serve)
        announcement = self.announcement(serve)
        self.base, self.sign_in = announcement["url"], announcement["signInUrl"]

    def upload(self, port, credentials):
        """The bucket, with a few hundred kilobytes' photos (several answers' worth each) and a video."""
        import boto3
        s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id=credentials["AWS_ACCESS_KEY_ID"],
                          aws_secret_access_key=credentials["AWS_SECRET_ACCESS_KEY"], region_name=credentials["AWS_REGION"])
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                s3.create_bucket(Bucket=self.BUCKET)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise StepFailed("moto's S3 server did not start") from None
                time.sleep(0.1)
        folder = self.workdir / "photos"
        make_library(folder, photos=12)
        for photo in sorted(folder.glob("*.jpg")):
            # Padded after the end marker (decoders ignore it), so that a transfer has a middle to hold.
            s3.put_object(Bucket=self.BUCKET, Key=f"Camera/{photo.name}", Body=photo.read_bytes() + b"\0" * (512 << 10))

    def index(self, binary, environment):
        """Indexes the bucket with its previews (which fetches every original once), then empties
        the originals kept on this machine, as a person freeing space does: every original is in
        the cloud again, and browsing has every preview."""
        indexed = subprocess.run([binary, "index", f"s3://{self.BUCKET}/", "--previews", "--json"], stdout=subprocess.PIPE,
                                 stderr=self.log, env=environment, timeout=GRID_WAIT_SECONDS * 4)
        if indexed.returncode != 0:
            self.log.flush()
            raise StepFailed(f"index of the bucket failed: {(self.workdir / 'server.log').read_text()[-2000:]}")
        summary = json.loads(indexed.stdout)
        if summary.get("added") != 12:
            raise StepFailed(f"index of the bucket added {summary.get('added')} of 12 photos: {summary}")
        kept = list((self.workdir / "data").glob("assets-picker/libraries/*/library-originals"))
        if len(kept) != 1:
            raise StepFailed(f"the originals fetched for the previews should be in one folder beside the index: {kept}")
        shutil.rmtree(kept[0])

    def announcement(self, process):
        deadline = time.monotonic() + GRID_WAIT_SECONDS
        line = b""
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = process.stdout.read1(4096) if ready else b""
            if not chunk:
                self.log.flush()
                raise StepFailed(f"the bucket's server did not announce itself: {(self.workdir / 'server.log').read_text()[-2000:]}")
            line += chunk
        return json.loads(line.split(b"\n")[0])

    def stop(self, artifacts):
        for process in reversed(self.processes):
            try:
                os.killpg(process.pid, 15)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
        self.log.close()
        shutil.copyfile(self.workdir / "server.log", artifacts / "cloud-server.log")
        shutil.rmtree(self.workdir, ignore_errors=True)


def run_cloud_bucket(binary, artifacts, scenario, measured):
    scenario.begin("cloud: a library whose originals are in a bucket (moto)")
    server = BucketServer(binary)
    driver = make_driver()
    page = Page(driver)
    try:
        driver.get(server.sign_in)
        client = Client(server.base, server.key)
        session = client.create_session(max_items=5, order="pick")
        run_cloud(page, client, session["pickerUri"], server.relay, artifacts, scenario, measured)
    except Exception:
        report_page(page, artifacts, scenario)
        raise
    finally:
        driver.quit()
        server.stop(artifacts)
