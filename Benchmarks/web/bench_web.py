#!/usr/bin/env python3
"""The picker server's web targets, measured in one run and printed side by side.

1. The first screen of All Photos at 100,000 assets (web_library.py: the newest 120 are real
   12-MP photos, JPEGs with and without an EXIF thumbnail, HEIC, or a mix), in headless Chromium
   at 1280x900 and at 390x844 with a device pixel ratio of 3: ms from the album click until every
   visible cell shows an image, ours cold (server just started, empty rendition cache, new
   browser) and warm (new browsers, same server), against the floor: the same thumbnails as
   static files behind nginx, in the same boxes (floor_page.py), its browsers taking turns with
   our warm ones. Targets: cold <= 2.0x, warm <= 1.0x the floor.
2. Warm thumbnails over HTTP: the first 60 assets of the demo library's All Photos rendered once
   at 256x256 (fill, JPEG, quality 80) through the picker page's API, then wrk against our server
   and against nginx serving those very bytes from disk. Target: ours >= 0.9x nginx's requests
   per second. For reference, wrk also asks our server for the page's stylesheet, which
   Hummingbird's router answers from memory with no library work: what a request costs when it
   does not take the thumbnails' event-loop fast path (RenditionFastPath).

Run by scripts/bench-web.sh (which installs nginx, wrk, chromium, selenium and builds the
release binaries):  python3 Benchmarks/web/bench_web.py --binary PATH [--libraries mix]
[--screens desktop,phone] [--skip-browser|--skip-http] [--json]. The libraries are kept in
$TMPDIR/assets-picker-bench-web for later runs.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ beside the sources

THUMBNAIL_QUERY = "w=256&h=256&mode=fill&format=jpeg&quality=80"
ASSET_COUNT = 60
THROUGHPUT_TARGET = 0.9
COLD_TARGET = 2.0  # ours cold / the nginx floor, at most
JUST_INDEXED_TARGET = 1.0  # ours cold right after `index` returned (the newest photos' previews made, the rest to come) / the floor, at most
WARM_TARGET = 1.0  # ours warm / the nginx floor, at most


def log(message):
    print(f"bench-web: {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http(method, url, key=None, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.read()


class Server:
    """`assets-picker serve --json` with an empty rendition cache in `workdir`: on its own copy of
    the demo library and its index, or on `library` with the index `index` (not watched)."""

    def __init__(self, binary, workdir, library=None, index=None):
        self.key = secrets.token_hex(24)
        workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / "server.log"
        environment = dict(os.environ, ASSETS_PICKER_DEMO_LIBRARY=str(workdir / "demo"),
                           XDG_CACHE_HOME=str(workdir / "cache"), XDG_DATA_HOME=str(workdir / "data"),
                           ASSETS_PICKER_CLIENT_KEY=self.key)
        library_arguments = ["--library", str(library), "--index", str(index), "--no-watch"] if library else []
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--json", "--log-level", "warning", *library_arguments],
            stdout=subprocess.PIPE, stderr=open(self.log_path, "wb"), env=environment)
        line = self.process.stdout.readline()  # printed once it listens (after making the demo library)
        if not line:
            raise RuntimeError(f"the server exited before it listened; see {self.log_path}:\n{self.log_path.read_text()}")
        announcement = json.loads(line)
        self.base = announcement["url"].rstrip("/")
        self.port = announcement["port"]
        # The person signs in with the printed one-time link; the picker's paths need the cookie.
        with urllib.request.urlopen(announcement["signInUrl"], timeout=120) as response:
            self.cookie = response.headers["Set-Cookie"].split(";")[0]
        self.person = {"Cookie": self.cookie, "Origin": self.base}

    def cpu_seconds(self):
        """The server's CPU time so far (user + system), or None where /proc cannot say."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def wait_until_idle(self, quiet=0.3, limit=60):
        """Waits until the server used no CPU for `quiet` seconds (`limit` seconds at most): the
        renders a browser that has quit asked for (its sharp upgrades, its prefetch of the rows
        further down) are done, and the next browser meets a quiet server."""
        deadline = time.monotonic() + limit
        last = self.cpu_seconds()
        while last is not None and time.monotonic() < deadline:
            time.sleep(quiet)
            now = self.cpu_seconds()
            if now is None or now - last < 0.01:
                return
            last = now

    def new_session(self):
        return json.loads(http("POST", self.base + "/v1/sessions", self.key, {"pickingConfig": {"maxItemCount": "100"}}))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Nginx:
    """nginx on a loopback port, serving one folder with its own configuration."""

    def __init__(self, root, prefix):
        self.port = free_port()
        prefix.mkdir()
        config = prefix / "nginx.conf"
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers must read the files in our temp folder
        config.write_text(f"""{user}worker_processes 2;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    open_file_cache max=1000 inactive=60s;
    open_file_cache_valid 60s;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    types {{ image/jpeg jpg; text/html html; }}
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        root {root};
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-e", str(prefix / "error.log"), "-p", str(prefix), "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {self.process.stderr.read().decode()}"
                                       f"{(prefix / 'error.log').read_text() if (prefix / 'error.log').exists() else ''}")
                time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: fast shutdown of the master and its workers
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def prepare_thumbnails(server, root):
    """Renders the first assets of All Photos once through the picker page's API (warming the
    server's caches) and saves the same bytes under root; answers (server paths, nginx paths)."""
    session = server.new_session()
    picker_path = urllib.parse.urlparse(session["pickerUri"]).path
    api = server.base + picker_path + "api/"
    albums = json.loads(http("GET", api + "albums", headers=server.person))["albums"]
    camera_roll = next((a for a in albums if a["kind"] == "cameraRoll"), albums[0])
    album = urllib.parse.quote(camera_roll["id"], safe="")
    items = json.loads(http("GET", f"{api}albums/{album}/assets?offset=0&limit={ASSET_COUNT}", headers=server.person))["items"]
    server_paths, nginx_paths = [], []
    (root / "thumbnails").mkdir(parents=True)
    for item in items:
        path = f"{picker_path}api/assets/{item['id']}/image?{THUMBNAIL_QUERY}"
        (root / "thumbnails" / f"{item['id']}.jpg").write_bytes(http("GET", server.base + path, headers=server.person))
        server_paths.append(path)
        nginx_paths.append(f"/thumbnails/{item['id']}.jpg")
    return server_paths, nginx_paths


def run_wrk(base, paths_file, threads, connections, duration, cookie=""):
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}", "-s", str(HERE / "rotate.lua"),
               base + "/", "--", str(paths_file), cookie]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next((l for l in output.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no RESULT line:\n{output}")
    result = json.loads(line[len("RESULT "):])
    if result["non2xx"] or result["socketErrors"]:
        raise RuntimeError(f"wrk against {base} saw {result['non2xx']} non-2xx answers and "
                           f"{result['socketErrors']} socket errors:\n{output}")
    result["requestsPerSecond"] = result["requests"] / (result["durationMicroseconds"] / 1e6)
    return result


def static_file_path(server):
    """The path of the picker page's stylesheet under /ui/: a file the server answers from memory
    with no library work, through Hummingbird's router: the reference row."""
    try:
        page = http("GET", server.new_session()["pickerUri"], headers=server.person).decode()
    except urllib.error.HTTPError:
        return None  # a build without the web picker's files
    match = re.search(r'href="(/ui/[^"]+\.css)"', page)
    return match.group(1) if match else None


def throughput(server, nginx_root, workdir, arguments):
    server_paths, nginx_paths = prepare_thumbnails(server, nginx_root)
    (workdir / "server-paths.txt").write_text("\n".join(server_paths) + "\n")
    (workdir / "nginx-paths.txt").write_text("\n".join(nginx_paths) + "\n")
    static_path = static_file_path(server)
    if static_path:
        (workdir / "static-paths.txt").write_text(static_path + "\n")
    nginx = Nginx(nginx_root, workdir / "nginx")
    try:
        same = http("GET", nginx.base + nginx_paths[0]) == http("GET", server.base + server_paths[0], headers=server.person)
        if not same:
            raise RuntimeError("nginx and the server answer different bytes for the same thumbnail")
        # A server just started on a new demo library makes its previews in the background first.
        server.wait_until_idle()
        ours, theirs, static = [], [], []
        for run in range(arguments.runs):  # alternated, so that a busy moment hurts all alike
            log(f"wrk run {run + 1}/{arguments.runs}: assets-picker")
            ours.append(run_wrk(server.base, workdir / "server-paths.txt", arguments.threads,
                                arguments.connections, arguments.duration, server.cookie))
            log(f"wrk run {run + 1}/{arguments.runs}: nginx")
            theirs.append(run_wrk(nginx.base, workdir / "nginx-paths.txt", arguments.threads,
                                  arguments.connections, arguments.duration))
            log(f"wrk run {run + 1}/{arguments.runs}: {ours[-1]['requestsPerSecond']:,.0f} and {theirs[-1]['requestsPerSecond']:,.0f} req/s")
            if static_path:
                log(f"wrk run {run + 1}/{arguments.runs}: assets-picker, {static_path} (reference)")
                static.append(run_wrk(server.base, workdir / "static-paths.txt", arguments.threads,
                                      arguments.connections, arguments.duration))
    finally:
        nginx.stop()
    median_ours = statistics.median(r["requestsPerSecond"] for r in ours)
    median_nginx = statistics.median(r["requestsPerSecond"] for r in theirs)
    sizes = [(nginx_root / p.lstrip("/")).stat().st_size for p in nginx_paths]
    reference = None
    if static:
        reference = {"path": static_path, "bytes": len(http("GET", server.base + static_path)),
                     "medianRequestsPerSecond": round(statistics.median(r["requestsPerSecond"] for r in static)),
                     "runs": static}
    return {
        "staticFileReference": reference,
        "files": len(nginx_paths), "meanFileBytes": round(statistics.mean(sizes)),
        "wrk": {"threads": arguments.threads, "connections": arguments.connections,
                "duration": arguments.duration, "runs": arguments.runs},
        "assetsPicker": {"medianRequestsPerSecond": round(median_ours), "runs": ours},
        "nginx": {"medianRequestsPerSecond": round(median_nginx), "runs": theirs},
        "ratio": round(median_ours / median_nginx, 3),
        "target": THROUGHPUT_TARGET,
    }


def screens(names):
    import grid_first_screen as grid
    known = {"desktop": grid.DESKTOP, "phone": grid.PHONE}
    return [known[name] for name in names.split(",")]


def thumbnail_bytes(server, picker_uri, box):
    """The final rendition the grid shows in `box` (delivery=high at the cell's device pixels)."""
    path = urllib.parse.urlparse(picker_uri).path
    query = urllib.parse.urlencode({"w": box["px"], "h": box["px"], "mode": "fill", "format": "jpeg", "delivery": "high"})
    return http("GET", f"{server.base}{path}api/assets/{urllib.parse.quote(box['assetId'], safe='')}/image?{query}",
                headers=server.person)


def fresh_server(arguments, library, run, just_indexed=False):
    """`assets-picker serve` on its own copy of `library`'s index and previews (the kept ones stay
    as made): a server just started, its rendition cache empty. `just_indexed`: on the index as
    `assets-picker index` left it, the newest photos' previews made (the server makes the rest in the background)."""
    import web_library
    folder, index, _ = library
    run.mkdir()
    if just_indexed:
        shutil.copyfile(web_library.just_indexed(index), run / "library.sqlite")
        if web_library.previews_folder(web_library.just_indexed(index)).exists():
            shutil.copytree(web_library.previews_folder(web_library.just_indexed(index)), web_library.previews_folder(run / "library.sqlite"))
        return Server(arguments.binary, run, library=folder, index=run / "library.sqlite")
    shutil.copyfile(index, run / "library.sqlite")
    if web_library.previews_folder(index).exists():
        shutil.copytree(web_library.previews_folder(index), web_library.previews_folder(run / "library.sqlite"))
    return Server(arguments.binary, run, library=folder, index=run / "library.sqlite")


def first_screen_case(arguments, variant, library, viewport, floor_nginx, floor_root, workdir):
    """One library on one screen: ours cold (each a new server, empty rendition cache, a new
    browser), then, on the last cold one's server, ours warm (more new browsers, once the cells'
    final thumbnails are rendered) and the static floor (new browsers, nginx) taking turns, each
    once the server is idle: a machine whose load drifts during the row meets both sides alike."""
    import floor_page
    import grid_first_screen as grid
    _, _, summary = library
    slug = f"{variant}-{viewport[0].split()[0]}"
    log(f"first screen, {variant}, {viewport[0]}: ours cold {arguments.cold_runs} times, then {arguments.warm_runs} warm "
        f"and {arguments.floor_runs} nginx floor runs, taking turns")
    cold, warm, floor, just_indexed = [], [], [], []
    # Right after `index` returned: a new server on an index without previews (it starts making
    # them, newest first, as the browser opens the album).
    for number in range(arguments.cold_runs):
        server = fresh_server(arguments, library, workdir / f"{slug}-just-indexed-{number}", just_indexed=True)
        try:
            run = grid.first_screen(server.new_session()["pickerUri"], server.cookie, viewport)
            just_indexed.append(run)
        finally:
            server.stop()
    for number in range(arguments.cold_runs):
        server = fresh_server(arguments, library, workdir / f"{slug}-{number}")
        try:
            cold.append(grid.first_screen(server.new_session()["pickerUri"], server.cookie, viewport, cells=True))
            if number < arguments.cold_runs - 1:
                continue
            boxes = cold[-1]["cellBoxes"]
            # The final thumbnails of the cells shown: what the cold browser's sharpening leaves on
            # the server when it stays open (it quits at the mark here), and the floor's files.
            picker_uri = server.new_session()["pickerUri"]
            thumbnails = [thumbnail_bytes(server, picker_uri, box) for box in boxes]
            page = floor_page.write_page(floor_root, slug, boxes, thumbnails)
            for turn in range(max(arguments.warm_runs, arguments.floor_runs)):
                # The browser before asked for the rows further down (a prefetch that outlives it):
                # warm means those renders are done, not that they share the cores with this
                # browser, or with the floor's.
                if turn < arguments.warm_runs:
                    server.wait_until_idle()
                    warm.append(grid.first_screen(server.new_session()["pickerUri"], server.cookie, viewport))
                if turn < arguments.floor_runs:
                    server.wait_until_idle()
                    floor.append(floor_page.first_screen(floor_nginx.base + page, viewport))
        finally:
            server.stop()
    for run in cold:
        run.pop("cellBoxes")
    floor_ms = statistics.median(r["fromClickMs"] for r in floor)
    cold_ms = statistics.median(r["fromClickMs"] for r in cold)
    warm_ms = statistics.median(r["fromClickMs"] for r in warm)
    just_indexed_ms = statistics.median(r["fromClickMs"] for r in just_indexed)
    log(f"first screen, {variant}, {viewport[0]}: floor {floor_ms:.0f} ms, ours cold {cold_ms:.0f} ms "
        f"(just indexed {just_indexed_ms:.0f} ms), warm {warm_ms:.0f} ms")
    return {"library": variant, "files": summary["files"], "assets": summary["assets"], "screen": viewport[0],
            "cells": cold[-1]["cells"], "thumbnailBytes": round(statistics.mean(len(t) for t in thumbnails)),
            "floorMs": floor_ms, "coldMs": cold_ms, "warmMs": warm_ms, "justIndexedMs": just_indexed_ms,
            "coldRatio": round(cold_ms / floor_ms, 2), "warmRatio": round(warm_ms / floor_ms, 2),
            "justIndexedRatio": round(just_indexed_ms / floor_ms, 2),
            "cold": cold, "warm": warm, "floor": floor, "justIndexed": just_indexed}


def first_screens(arguments, workdir):
    """The first screen of All Photos at 100,000 assets, every library on every screen."""
    import web_library
    floor_root = workdir / "floor"
    floor_root.mkdir()
    nginx = Nginx(floor_root, workdir / "nginx-floor")
    cases = []
    try:
        for variant in arguments.libraries.split(","):
            library = web_library.prepare(variant, arguments.binary, arguments.bench_binary)
            for viewport in screens(arguments.screens):
                cases.append(first_screen_case(arguments, variant, library, viewport, nginx, floor_root, workdir))
    finally:
        nginx.stop()
    return {"cases": cases, "coldTarget": COLD_TARGET, "warmTarget": WARM_TARGET,
            "coldRuns": arguments.cold_runs, "warmRuns": arguments.warm_runs, "floorRuns": arguments.floor_runs}


def markdown(rows):
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return lines


def mark(ratio, target, at_least=False):
    ok = ratio >= target if at_least else ratio <= target
    return f"{ratio:.2f}x" + ("" if ok else " MISSED")


def table(report):
    """The results as Markdown tables (ready for the README and docs/PERFORMANCE.md)."""
    lines = [f"AssetsPicker web benchmarks ({report['cores']} cores; {report['when']})", ""]
    screens_ = report.get("firstScreen")
    if screens_:
        lines.append(f"First screen of All Photos at {screens_['cases'][0]['assets']:,} assets, ms from the album click "
                     f"until every visible cell shows an image (cold: median of {screens_['coldRuns']} new servers, empty rendition cache, previews made; just indexed: the same on the index as `index` left it, the newest photos' previews made, "
                     f"the server making them meanwhile; warm: median "
                     f"of {screens_['warmRuns']} new browsers, same server; floor: the same thumbnails behind nginx, "
                     f"same boxes, median of {screens_['floorRuns']}). Targets: cold <= {screens_['coldTarget']:.1f}x, just indexed <= {JUST_INDEXED_TARGET:.1f}x, "
                     f"warm <= {screens_['warmTarget']:.1f}x the floor.")
        lines.append("")
        rows = [("newest 120", "screen", "cells", "nginx floor", "ours cold", "cold / floor", "just indexed", "just indexed / floor",
                 "ours warm", "warm / floor")]
        for case in screens_["cases"]:
            rows.append((case["library"], case["screen"], str(case["cells"]), f"{case['floorMs']:.0f}", f"{case['coldMs']:.0f}",
                         mark(case["coldRatio"], screens_["coldTarget"]), f"{case['justIndexedMs']:.0f}",
                         mark(case["justIndexedRatio"], JUST_INDEXED_TARGET), f"{case['warmMs']:.0f}",
                         mark(case["warmRatio"], screens_["warmTarget"])))
        lines += markdown(rows) + [""]
        lines.append("Where ours spends it: ms after the click when the album's API answers ended, the first image "
                     "request started, the last image answer ended, and every cell showed its image (the last cold and warm runs; "
                     "-: none after the click: the page had the album's first page, and the first screen's held "
                     "thumbnails, already).")
        lines.append("")
        rows = [("newest 120", "screen", "run", "API done", "first image asked", "last image arrived", "all shown")]
        for case in screens_["cases"]:
            for name, run in (("cold", case["cold"][-1]), ("warm", case["warm"][-1])):
                dash = lambda value: "-" if value is None else str(value)
                rows.append((case["library"], case["screen"], name, dash(run["apiDoneMs"]), dash(run["firstImageStartMs"]),
                             dash(run["lastImageEndMs"]), f"{run['fromClickMs']:.0f}"))
        lines += markdown(rows) + [""]
    http_ = report.get("thumbnails")
    if http_:
        lines.append(f"Warm 256x256 thumbnails over HTTP ({report['library']}): wrk -t{http_['wrk']['threads']} "
                     f"-c{http_['wrk']['connections']} -d{http_['wrk']['duration']} rotating through {http_['files']} "
                     f"files of {http_['meanFileBytes']:,} bytes on average, median of {http_['wrk']['runs']} runs; "
                     f"nginx: 2 workers, sendfile, open_file_cache, access_log off.")
        lines.append("")
        rows = [("req/s", "assets-picker", "nginx", "ratio (target)")]
        rows.append(("thumbnails", f"{http_['assetsPicker']['medianRequestsPerSecond']:,}",
                     f"{http_['nginx']['medianRequestsPerSecond']:,}",
                     f"{mark(http_['ratio'], http_['target'], at_least=True)} (>= {http_['target']:.1f}x)"))
        reference = http_.get("staticFileReference")
        if reference:
            rows.append((f"reference: {reference['path']}", f"{reference['medianRequestsPerSecond']:,}", "",
                         "through the router, no library work"))
        lines += markdown(rows)
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the assets-picker binary (a release build)")
    parser.add_argument("--bench-binary", help="assets-picker-bench, which makes the 12-MP photos "
                        "(default: the one beside --binary)")
    parser.add_argument("--libraries", default="jpeg-half-exif,jpeg-exif,jpeg-plain,heic,mix",
                        help="the first screen's libraries (web_library.VARIANTS), comma-separated")
    parser.add_argument("--screens", default="desktop,phone", help="desktop (1280x900), phone (390x844 at 3x)")
    parser.add_argument("--cold-runs", type=int, default=3, help="new servers (empty caches) with a new browser each; the median counts")
    parser.add_argument("--warm-runs", type=int, default=5, help="new browsers on the warm server; the median counts")
    parser.add_argument("--floor-runs", type=int, default=5, help="new browsers on the nginx floor; the median counts")
    parser.add_argument("--runs", type=int, default=5, help="wrk runs per server; the median counts")
    parser.add_argument("--duration", default="10s", help="each wrk run's length")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--skip-browser", action="store_true", help="only the HTTP throughput")
    parser.add_argument("--skip-http", action="store_true", help="only the grid's first screen")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document")
    arguments = parser.parse_args()
    arguments.binary = str(Path(arguments.binary).resolve())
    arguments.bench_binary = Path(arguments.bench_binary or Path(arguments.binary).parent / "assets-picker-bench")

    workdir = Path(tempfile.mkdtemp(prefix="assets-picker-bench-web."))
    os.chmod(workdir, 0o755)  # nginx's workers read the thumbnails from here
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
              "library": "demo library"}
    server = None
    try:
        if not arguments.skip_browser:
            report["firstScreen"] = first_screens(arguments, workdir)
        if not arguments.skip_http:
            log(f"starting the server on a new demo library in {workdir}")
            server = Server(arguments.binary, workdir / "demo-server")
            albums = json.loads(http("GET", server.base + urllib.parse.urlparse(server.new_session()["pickerUri"]).path
                                     + "api/albums", headers=server.person))["albums"]
            report["library"] = f"demo library, {albums[0]['count']} items in {albums[0]['title']}"
            log("warm thumbnails over HTTP: assets-picker and nginx")
            report["thumbnails"] = throughput(server, workdir / "www", workdir, arguments)
    finally:
        if server:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(report, indent=2) if arguments.json else table(report))


if __name__ == "__main__":
    main()
