"""A server of its own on a library of small real JPEGs: by default a few hundred, too many for one screen."""

import json
import os
import secrets
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from e2e_common import GRID_WAIT_SECONDS, StepFailed

SOURCES = ("jhead__hp.jpg", "jhead__sony.jpg", "jhead__olympus.jpg", "jhead__rotate.jpg")
PHOTOS = 360


def corpus():
    """The shared test corpus, found as Tests/Support/Corpus.swift finds it: $ASSETS_PICKER_TESTDATA,
    else the first shared/testdata in a folder above this one."""
    if os.environ.get("ASSETS_PICKER_TESTDATA"):
        return Path(os.environ["ASSETS_PICKER_TESTDATA"])
    for folder in Path(__file__).resolve().parents:
        if (folder / "shared" / "testdata").is_dir():
            return folder / "shared" / "testdata"
    raise StepFailed("no shared/testdata corpus above the package, and $ASSETS_PICKER_TESTDATA is not set")


def make_library(folder, photos=PHOTOS, layout=None):
    """`photos` distinct files (a corpus JPEG with a trailing comment after its end marker, which
    decoders ignore), so that every asset has its own content and its own renders; with `layout`
    ({relative folder: photos in it}, 0 for an empty folder), in those folders instead."""
    folder.mkdir()
    camera = corpus() / "A_camera_exif"
    number = 0
    for place, count in (layout or {".": photos}).items():
        (folder / place).mkdir(parents=True, exist_ok=True)
        for _ in range(count):
            source = camera / SOURCES[number % len(SOURCES)]
            if not source.exists():
                raise StepFailed(f"the corpus file {source.name} is missing (scripts/corpus.sh makes the corpus)")
            (folder / place / f"photo-{number:04d}.jpg").write_bytes(source.read_bytes() + f"\nphoto {number}\n".encode())
            number += 1


class LibraryServer:
    """`assets-picker serve` on a fresh library of `photos` photos, opened with `backend` (auto,
    indexed or folder), in a temporary folder removed on stop; its log is kept as `log_name`."""

    def __init__(self, binary, photos=PHOTOS, backend="auto", log_name="scroll-server.log", layout=None):
        self.workdir = Path(tempfile.mkdtemp(prefix="assets-picker-e2e-server."))
        self.log_name = log_name
        make_library(self.workdir / "library", photos, layout)
        self.key = secrets.token_hex(24)
        environment = dict(os.environ, ASSETS_PICKER_CLIENT_KEY=self.key,
                           XDG_CACHE_HOME=str(self.workdir / "cache"), XDG_DATA_HOME=str(self.workdir / "data"))
        self.log = open(self.workdir / "server.log", "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--library", str(self.workdir / "library"), "--backend", backend, "--port", "0", "--json", "--no-watch"],
            stdout=subprocess.PIPE, stderr=self.log, env=environment)
        announcement = self.announcement()
        self.base, self.sign_in = announcement["url"], announcement["signInUrl"]

    def announcement(self):
        """The first line on stdout, once the library is indexed and the server listens (hang guard)."""
        deadline = time.monotonic() + GRID_WAIT_SECONDS
        line = b""
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = self.process.stdout.read1(4096) if ready else b""
            if not chunk:
                raise StepFailed(f"the server of its own library did not announce itself: {self.log_text()}")
            line += chunk
        return json.loads(line.split(b"\n")[0])

    def log_text(self):
        self.log.flush()
        return (self.workdir / "server.log").read_text()[-2000:]

    def stop(self, artifacts):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.copy(self.workdir / "server.log", artifacts / self.log_name)
        shutil.rmtree(self.workdir, ignore_errors=True)
