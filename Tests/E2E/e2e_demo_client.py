"""The demo client page (/demo/): a client program run in the person's browser, as a newcomer meets it.

First the server's own session (the one its first sign-in link opened): the person picks two photos
and presses Done, and the picker goes on to the demo client page, which shows that session's picks
as the client API lists them. Then the page works as an app does: "Pick photos" creates a new
session through /demo/v1/sessions, opens its pickerUri, the person picks two and presses Done, and
back on the page the session is polled until mediaItemsSet, its picks listed: two items whose
thumbnails (each baseUrl with =w256-h256-c) load, the client API's JSON, a download of each
original (=d), "Download all" saving both, and the curl lines with the real ids but never the key.
The client program, with its key, lists exactly the same picks; the page in Simplified Chinese; axe
finds no violation and every control is at least 44 x 44. A client program's session is unknown
(404) to the person through the mirror; without the person's sign-in every path of it is refused
(401), the client key alone too. On a phone the same page and flow, with nothing wider than the screen.
"""

import json
import re
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

from e2e_axe import check_axe, check_controls
from e2e_client import plain_status, wait_finished
from e2e_common import StepFailed
from e2e_page import person_status, pick_by_mouse

PICKS = 2

SHOWN = """
    const items = [...document.querySelectorAll('#demo-items .demo-item')];
    return {status: document.getElementById('demo-status').textContent.trim(),
            list: document.getElementById('list-status').textContent.trim(),
            ids: items.map(i => i.dataset.itemId),
            thumbs: items.map(i => { const img = i.querySelector('img');
                                     return img.complete && img.naturalWidth > 0 ? [img.naturalWidth, img.naturalHeight] : null; }),
            downloads: items.map(i => i.querySelector('a.demo-download').getAttribute('href')),
            json: document.getElementById('items-json').textContent,
            session: document.getElementById('session-json').textContent,
            curl: document.getElementById('demo-curl').textContent};"""

# Wider than the screen: the page, or any element scrolling sideways inside it.
OVERFLOW = """
    const wide = [...document.querySelectorAll('body *')].filter(e => e.scrollWidth > e.clientWidth + 1
        && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
        .map(e => (e.id || e.className || e.tagName) + ' ' + e.scrollWidth + '>' + e.clientWidth);
    return {page: document.documentElement.scrollWidth, screen: innerWidth, wide};"""


def check_no_sideways_scroll(page, name):
    """Fails when the page, or anything in it, is wider than the screen and scrolls sideways."""
    found = page.script(OVERFLOW)
    if found["page"] > found["screen"] or found["wide"]:
        raise StepFailed(f"{name} scrolls sideways: the page {found['page']} px on a {found['screen']} px screen, {found['wide'][:5]}")


def open_all_photos(page):
    """From the album list of a picker, All Photos' grid, its first screen shown."""
    page.wait_view("albums-view")
    buttons = page.wait("album buttons", lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))
    [button for button in buttons if button.find_element(By.CSS_SELECTOR, ".album-title").text.strip() == "All Photos"][0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()


def wait_demo_items(page, session_id, count):
    """On the demo client page for `session_id`, its `count` picks listed with their thumbnails loaded."""
    page.wait("the demo client page", lambda d: urllib.parse.urlparse(d.current_url).path.endswith("/demo/")
              and urllib.parse.parse_qs(urllib.parse.urlparse(d.current_url).query).get("session") == [session_id])
    return page.wait(f"{count} picks listed with their thumbnails loaded",
                     lambda _: (shown := page.script(SHOWN))["ids"] and len(shown["ids"]) == count
                     and all(shown["thumbs"]) and shown["curl"] and shown)


def check_shown(page, client, session_id, picked, shown):
    """What the page shows is what the client program receives, through each baseUrl."""
    print(f"e2e:   the page says: {shown['list']}; thumbnails {shown['thumbs']}", flush=True)
    if [i.upper() for i in shown["ids"]] != [p.upper() for p in picked]:
        raise StepFailed(f"the demo client page shows {shown['ids']}, the person picked {picked}")
    listed = client.items(session_id)
    if [item["id"].upper() for item in listed] != [p.upper() for p in picked]:
        raise StepFailed(f"the client lists {[item['id'] for item in listed]}, the page showed {shown['ids']}")
    # The baseUrls the page received are the client's (only their expiry moves from one listing to the next).
    received = [item["mediaFile"]["baseUrl"].rsplit("/", 1)[0] for item in listed]
    if any(url not in shown["json"] for url in received):
        raise StepFailed(f"the page's JSON lacks the client's baseUrls {received}: {shown['json'][:600]}")
    if any(max(thumb) > 256 for thumb in shown["thumbs"]):
        raise StepFailed(f"the thumbnails should be the baseUrl's =w256-h256-c: {shown['thumbs']}")
    for needle in ('"mediaItems"', '"baseUrl"', "GET /v1/mediaItems?sessionId=" + session_id):
        if needle not in shown["json"]:
            raise StepFailed(f"the page's JSON of the listing lacks {needle}: {shown['json'][:600]}")
    if '"mediaItemsSet": true' not in shown["session"]:
        raise StepFailed(f"the page should show the polled session with mediaItemsSet true: {shown['session'][:600]}")
    if client.key in page.driver.page_source or client.key in shown["curl"]:
        raise StepFailed("the client key reached the browser")
    if f"$API/sessions/{session_id}" not in shown["curl"] or "$KEY" not in shown["curl"]:
        raise StepFailed(f"the terminal lines should name the real session and $KEY: {shown['curl']}")
    for download, item in zip(shown["downloads"], listed):
        original = urllib.parse.urljoin(page.driver.current_url, download)
        suffix = "=dv" if item["type"] == "VIDEO" else "=d"
        if not original.endswith(suffix) or "/demo/v1/media/" not in original or person_status(page, original) != 200:
            raise StepFailed(f"a pick's original ({suffix}) does not download through the page's path: {original}")


def pick_in_picker(page, count, first=0):
    """In the picker the browser shows, All Photos, `count` picks from cell `first`, then Done."""
    open_all_photos(page)
    picked = [pick_by_mouse(page, index, number + 1) for number, index in enumerate(range(first, first + count))]
    page.driver.find_element(By.ID, "done-button").click()
    return picked


def create_and_pick(page, client, first):
    """On the demo client page: Pick photos, the picker, two picks and Done; back, the new session's picks.
    Answers (session id, picked ids, what the page shows)."""
    page.driver.find_element(By.ID, "max-items").clear()
    page.driver.find_element(By.ID, "max-items").send_keys("3")
    page.driver.find_element(By.ID, "pick-photos").click()
    page.wait("the new session's picker", lambda d: "/picker/" in d.current_url)
    session_id = urllib.parse.urlparse(page.driver.current_url).path.split("/")[2]
    made = client.session(session_id)
    if made["pickingConfig"]["maxItemCount"] != "3" or made["mediaItemsSet"]:
        raise StepFailed(f"the page's session should be an ordinary one of at most 3 items, to the client too: {made}")
    picked = pick_in_picker(page, PICKS, first)
    shown = wait_demo_items(page, session_id, PICKS)
    return session_id, picked, shown


def download_all(page, shown):
    """Download all saves every pick's original, one after another, into a folder the browser is given."""
    folder = Path(tempfile.mkdtemp(prefix="assets-picker-e2e-downloads."))
    page.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    page.driver.find_element(By.ID, "download-all").click()
    def saved(_):
        files = [f for f in folder.iterdir() if not f.name.endswith(".crdownload")]
        return len(files) == len(shown["ids"]) and all(f.stat().st_size > 0 for f in files) and files
    done = page.wait(f"Download all to save {len(shown['ids'])} originals", saved)
    heads = [f.read_bytes()[:2] for f in done]
    print(f"e2e:   Download all saved {sorted(f.name for f in done)}", flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    if any(head != b"\xff\xd8" for head in heads):
        raise StepFailed(f"the downloaded originals are not JPEGs: {heads}")


# File names a library may hold that a terminal must not take as they are: a quote, a newline that
# would end the command, an escape sequence, bidirectional overrides, a C1 code, DEL.
HOSTILE_NAMES = ["my photo.jpg", "q'$(touch pwned)'.jpg", "nl\n$(touch pwned)\n.jpg", "\u202egpj.exe", "esc\x1b[31mred.jpg",
                 "c1\x85\x7f.jpg", "iso\u2066x\u2069.jpg", "back\\slash'\t.jpg"]
UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_shell_words(page):
    """The page's shell quoting (shell-word.js, what the curl lines use for a pick's file name): each
    hostile name is one word, with nothing unprintable in it, that bash reads back as the very name."""
    words = page.driver.execute_async_script(
        "const names = arguments[0], done = arguments[arguments.length - 1];"
        "import('/ui/shell-word.js').then((m) => done(names.map(m.shellWord)), (e) => done(String(e)));", HOSTILE_NAMES)
    if not isinstance(words, list):
        raise StepFailed(f"shell-word.js did not load: {words}")
    sandbox = Path(tempfile.mkdtemp(prefix="assets-picker-e2e-shell."))
    try:
        for name, word in zip(HOSTILE_NAMES, words):
            if UNPRINTABLE.search(word):
                raise StepFailed(f"the shell word for {name!r} carries a character a terminal acts on: {word!r}")
            read = subprocess.run(["bash", "--noprofile", "--norc", "-c", f"printf %s {word}"], cwd=sandbox, capture_output=True,
                                  env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}, check=False)
            if read.stdout.decode("utf-8", "replace") != name or read.returncode != 0:
                raise StepFailed(f"bash reads the shell word {word!r} as {read.stdout!r}, not {name!r}: {read.stderr!r}")
        if any(sandbox.iterdir()):
            raise StepFailed(f"a shell word ran a command: {sorted(p.name for p in sandbox.iterdir())}")
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)
    print(f"e2e:   {len(words)} hostile file names quoted, e.g. {words[2]}", flush=True)


def run_demo_client(page, client, base, own_path, artifacts, scenario):
    """Desktop: the server's own session, then a session the page makes (at `own_path`, the first sign-in link's `next`)."""
    measured = page.measured
    scenario.begin(f"the server's own session: {PICKS} picks and Done lead to the demo client page, which shows them")
    own_id = own_path.strip("/").split("/")[1]
    page.driver.get(base.rstrip("/") + own_path)
    picked = pick_in_picker(page, PICKS)
    shown = wait_demo_items(page, own_id, PICKS)
    check_shown(page, client, own_id, picked, shown)
    if wait_finished(client, client.session(own_id))["state"] != "complete":
        raise StepFailed("the server's own session should be complete after Done")

    scenario.begin(f"the demo client page as an app: Pick photos makes a session, {PICKS} picks, Done, and the page lists them")
    session_id, picked, shown = create_and_pick(page, client, first=2)
    check_shown(page, client, session_id, picked, shown)
    if '"pickingConfig": {\n    "maxItemCount": "3"' not in page.text("#created-json"):
        raise StepFailed(f"the page should show the session it created: {page.text('#created-json')[:400]}")
    check_controls(page, "the demo client page", measured["smallest"])
    check_axe(page, "the demo client page", measured["axe"])
    page.driver.execute_script("document.getElementById('step-list').scrollIntoView()")
    page.screenshots(artifacts, "demo-client")
    download_all(page, shown)

    scenario.begin("the terminal lines quote any file name as one shell word that bash reads back as the name")
    check_shell_words(page)

    scenario.begin("the demo client page in Simplified Chinese")
    page.driver.find_element(By.CSS_SELECTOR, "#language-select option[value='zh-CN']").click()
    page.wait("the page in Chinese", lambda _: page.text("h1") == "像程序一样试用" and "程序收到了 2 项" in page.text("#list-status"))
    check_axe(page, "the demo client page in Chinese", measured["axe"])
    page.driver.find_element(By.CSS_SELECTOR, "#language-select option[value='en']").click()
    page.wait("the page in English again", lambda _: page.text("h1") == "Try it as a program would")

    scenario.begin("opened at //demo/ (whose scripts' URLs would name the host 'demo'), the page is sent to /demo/ and works")
    page.driver.get(f"{base.rstrip('/')}//demo/?session={session_id}")
    page.wait("the canonical address", lambda d: urllib.parse.urlparse(d.current_url).path == "/demo/")
    wait_demo_items(page, session_id, PICKS)

    scenario.begin("Delete the session: gone for the client too")
    page.driver.find_element(By.ID, "delete-session").click()
    page.wait("the deletion said", lambda _: "Deleted" in page.text("#demo-status"))
    status, _, _ = client.request("GET", f"/v1/sessions/{session_id}")
    if status != 404:
        raise StepFailed(f"after Delete the client's GET of the session answered {status}, expected 404")

    scenario.begin("a client program's session is unknown to the person through the mirror; without signing in it refuses")
    other = client.create_session(max_items=1)
    origin = base.rstrip("/")
    for path in (f"demo/v1/sessions/{other['id']}", f"demo/v1/mediaItems?sessionId={other['id']}"):
        status = person_status(page, f"{origin}/{path}")
        if status != 404:
            raise StepFailed(f"a client's session answers {status} at /{path}, expected 404 (only the person's own sessions are shown)")
    for path in (f"demo/v1/sessions/{own_id}", f"demo/v1/mediaItems?sessionId={own_id}", "demo/"):
        status = plain_status(f"{origin}/{path}")
        if status != 401:
            raise StepFailed(f"without the person's sign-in /{path} answered {status}, expected 401")
        status, _, body = client.request("GET", f"/{path}")
        if status != 401:
            raise StepFailed(f"the client key opens the person's /{path} ({status}): {body[:200]!r}")
    client.request("DELETE", f"/v1/sessions/{other['id']}")
    print(f"e2e:   {json.dumps({'demo client': len(shown['ids'])})}", flush=True)


def run_phone_demo_client(page, client_key, artifacts, scenario, measured):
    """Phone: from the finished page of the server's own session (cancelled), back to the demo
    client page; Pick photos, two picks, Done, and the page lists them, nothing wider than the screen."""
    scenario.begin("phone: the cancelled own session's finished page leads to the demo client page")
    link = page.wait("the link to the demo client page", lambda d: d.find_elements(By.CSS_SELECTOR, "#finished-next:not([hidden]) #finished-link"))[0]
    if link.text.strip() != "Back to the demo client page":
        raise StepFailed(f"the finished page's link says {link.text!r}")
    link.click()
    page.wait("the demo client page", lambda d: urllib.parse.urlparse(d.current_url).path.endswith("/demo/"))
    page.wait("the cancelled session shown", lambda _: "no items" in (page.text("#list-status") or ""))
    check_no_sideways_scroll(page, "the phone's demo client page")

    scenario.begin(f"phone: the demo client page makes a session, {PICKS} picks, Done, and lists them")
    page.driver.find_element(By.ID, "max-items").clear()
    page.driver.find_element(By.ID, "max-items").send_keys("3")
    page.driver.find_element(By.ID, "pick-photos").click()
    page.wait("the new session's picker", lambda d: "/picker/" in d.current_url)
    session_id = urllib.parse.urlparse(page.driver.current_url).path.split("/")[2]
    picked = pick_in_picker(page, PICKS)
    shown = wait_demo_items(page, session_id, PICKS)
    print(f"e2e:   the page says: {shown['list']}; thumbnails {shown['thumbs']}", flush=True)
    if [i.upper() for i in shown["ids"]] != [p.upper() for p in picked]:
        raise StepFailed(f"the phone's demo client page shows {shown['ids']}, the person picked {picked}")
    if client_key in page.driver.page_source:
        raise StepFailed("the client key reached the phone's browser")
    if any(not d.endswith("=d") for d in shown["downloads"]):
        raise StepFailed(f"the downloads should be the originals (=d): {shown['downloads']}")
    check_no_sideways_scroll(page, "the phone's demo client page")
    check_controls(page, "the phone's demo client page", measured["smallest"])
    check_axe(page, "the phone's demo client page", measured["axe"])
    page.driver.execute_script("document.getElementById('step-list').scrollIntoView()")
    page.screenshots(artifacts, "phone-demo-client")
