#!/usr/bin/env python3
"""The picker server's web targets, measured in one run and printed side by side.

1. The grid's first screen in headless Chromium on a fresh demo library whose rendition cache
   is empty (cold), then the same page reloaded (warm). Target: warm <= 150 ms to all painted.
2. Warm thumbnails over HTTP: the first 60 assets of All Photos rendered once at 256x256 (fill,
   JPEG, quality 80) through the picker page's API, then wrk against our server and against
   nginx serving those very bytes from disk. Target: ours >= 0.7x nginx's requests per second.
   For reference, wrk also asks our server for the page's stylesheet, which Hummingbird's router
   answers from memory with no library work: what a request costs when it does not take the
   thumbnails' event-loop fast path (RenditionFastPath).

Run by scripts/bench-web.sh (which installs nginx, wrk, chromium, selenium and builds the
release binary):  python3 Benchmarks/web/bench_web.py --binary PATH [--runs 3] [--json]
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
THROUGHPUT_TARGET = 0.7
WARM_GRID_TARGET_MS = 150


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
    """`assets-picker serve --json` on its own copy of the demo library, its index and an empty rendition cache."""

    def __init__(self, binary, workdir):
        self.key = secrets.token_hex(24)
        self.log_path = workdir / "server.log"
        environment = dict(os.environ, ASSETS_PICKER_DEMO_LIBRARY=str(workdir / "demo"),
                           XDG_CACHE_HOME=str(workdir / "cache"), XDG_DATA_HOME=str(workdir / "data"),
                           ASSETS_PICKER_CLIENT_KEY=self.key)
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--json", "--log-level", "warning"],
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

    def __init__(self, root, workdir):
        self.port = free_port()
        prefix = workdir / "nginx"
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
    types {{ image/jpeg jpg; }}
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
    nginx = Nginx(nginx_root, workdir)
    try:
        same = http("GET", nginx.base + nginx_paths[0]) == http("GET", server.base + server_paths[0], headers=server.person)
        if not same:
            raise RuntimeError("nginx and the server answer different bytes for the same thumbnail")
        ours, theirs, static = [], [], []
        for run in range(arguments.runs):  # alternated, so that a busy moment hurts all alike
            log(f"wrk run {run + 1}/{arguments.runs}: assets-picker")
            ours.append(run_wrk(server.base, workdir / "server-paths.txt", arguments.threads,
                                arguments.connections, arguments.duration, server.cookie))
            log(f"wrk run {run + 1}/{arguments.runs}: nginx")
            theirs.append(run_wrk(nginx.base, workdir / "nginx-paths.txt", arguments.threads,
                                  arguments.connections, arguments.duration))
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


def grid_first_screen(server, warm_runs):
    import grid_first_screen as grid  # needs selenium; imported here so --help works without it
    session = server.new_session()
    result = grid.measure(session["pickerUri"], server.cookie, warm_runs)
    result["warmMedianFromClickMs"] = statistics.median(r["fromClickMs"] for r in result["warm"])
    result["warmMedianFromNavigationMs"] = statistics.median(r["fromNavigationMs"] for r in result["warm"])
    result["warmTargetMs"] = WARM_GRID_TARGET_MS
    return result


def table(report):
    grid, http_ = report.get("gridFirstScreen"), report.get("thumbnails")
    rows = [("measure", "assets-picker", "nginx", "ratio / target")]
    if http_:
        ok = "ok" if http_["ratio"] >= http_["target"] else "MISSED"
        rows.append((f"warm 256x256 thumbnails, req/s (median of {http_['wrk']['runs']})",
                     f"{http_['assetsPicker']['medianRequestsPerSecond']:,}",
                     f"{http_['nginx']['medianRequestsPerSecond']:,}",
                     f"{http_['ratio']:.2f}x (>= {http_['target']:.1f}x {ok})"))
        reference = http_.get("staticFileReference")
        if reference:
            rows.append((f"reference: {reference['path']} ({reference['bytes']:,} bytes), req/s",
                         f"{reference['medianRequestsPerSecond']:,}", "", "through the router, no library work"))
    if grid:
        cold, cells = grid["cold"], grid["cold"]["cells"]
        rows.append((f"grid first screen, cold, ms from click ({cells} cells on screen)", f"{cold['fromClickMs']:.0f}", "",
                     "reported"))
        rows.append(("grid first screen, cold, ms from navigation start", f"{cold['fromNavigationMs']:.0f}", "", ""))
        ok = "ok" if grid["warmMedianFromClickMs"] <= grid["warmTargetMs"] else "MISSED"
        rows.append((f"grid first screen, warm, ms from click (median of {len(grid['warm'])})",
                     f"{grid['warmMedianFromClickMs']:.0f}", "", f"<= {grid['warmTargetMs']} ms {ok}"))
        rows.append(("grid first screen, warm, ms from navigation start", f"{grid['warmMedianFromNavigationMs']:.0f}",
                     "", ""))
        last = grid["warm"][-1]
        rows.append(("grid first screen, warm: image requests (from browser cache)",
                     f"{last['imageRequests']} ({last['imageRequestsFromBrowserCache']})", "", ""))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [f"AssetsPicker web benchmarks ({report['library']}; {report['cores']} cores; "
             f"{report['when']})"]
    for number, row in enumerate(rows):
        lines.append("  ".join([row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in (1, 2)] + [row[3]]).rstrip())
        if number == 0:
            lines.append("-" * len(lines[-1]))
    if http_:
        lines.append(f"wrk -t{http_['wrk']['threads']} -c{http_['wrk']['connections']} -d{http_['wrk']['duration']} "
                     f"rotating through {http_['files']} files of {http_['meanFileBytes']:,} bytes on average; "
                     f"nginx: 2 workers, sendfile, open_file_cache, access_log off")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the assets-picker binary (a release build)")
    parser.add_argument("--runs", type=int, default=3, help="wrk runs per server; the median counts")
    parser.add_argument("--duration", default="10s", help="each wrk run's length")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--warm-runs", type=int, default=3, help="warm grid openings; the median counts")
    parser.add_argument("--skip-browser", action="store_true", help="only the HTTP throughput")
    parser.add_argument("--skip-http", action="store_true", help="only the grid's first screen")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document")
    arguments = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="assets-picker-bench-web."))
    os.chmod(workdir, 0o755)  # nginx's workers read the thumbnails from here
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
              "library": "demo library"}
    server = None
    try:
        log(f"starting the server on a new demo library in {workdir}")
        server = Server(arguments.binary, workdir)
        if not arguments.skip_browser:
            log("the grid's first screen in headless Chromium (cold, then warm)")
            report["gridFirstScreen"] = grid_first_screen(server, arguments.warm_runs)
        albums = json.loads(http("GET", server.base + urllib.parse.urlparse(server.new_session()["pickerUri"]).path
                                 + "api/albums", headers=server.person))["albums"]
        report["library"] = f"demo library, {albums[0]['count']} items in {albums[0]['title']}"
        if not arguments.skip_http:
            log("warm thumbnails over HTTP: assets-picker and nginx")
            report["thumbnails"] = throughput(server, workdir / "www", workdir, arguments)
    finally:
        if server:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(report, indent=2) if arguments.json else table(report))


if __name__ == "__main__":
    main()
