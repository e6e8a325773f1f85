"""What the program received: the server's own session, after Done, as its client gets it.

`serve` makes a session of its own at start and its first sign-in link opens it. The person picks
two photos there and presses Done: the page goes on to `received/`, which shows the two picks as
the client API lists them (the JSON, each baseUrl's thumbnail, a download of each original with
=d) without the client key ever reaching the browser. Another session's `received/` (one a client
program made) is unknown (404), and without the person's sign-in every path of it is refused (401).
"""

import json
import urllib.parse

from selenium.webdriver.common.by import By

from e2e_axe import check_axe, check_controls
from e2e_client import plain_status, wait_finished
from e2e_common import StepFailed
from e2e_page import person_status, pick_by_mouse

PICKS = 2

RECEIVED = """
    const items = [...document.querySelectorAll('#received-items .received-item')];
    return {status: document.getElementById('received-status').textContent.trim(),
            ids: items.map(i => i.dataset.itemId),
            thumbs: items.map(i => { const img = i.querySelector('img'); return img.complete ? [img.naturalWidth, img.naturalHeight] : null; }),
            downloads: items.map(i => i.querySelector('a.received-download').getAttribute('href')),
            json: document.getElementById('received-json').textContent};"""


def run_received(page, client, base, own_path, artifacts, scenario):
    """The server's own session (at `own_path`, the first sign-in link's `next`), picked and finished."""
    measured = page.measured
    scenario.begin(f"the server's own session: {PICKS} picks, Done, and the page shows what the program received")
    own_uri = base.rstrip("/") + own_path
    session_id = own_path.strip("/").split("/")[1]
    page.driver.get(own_uri)
    page.wait_view("albums-view")
    page.wait("album buttons", lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))[0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    picked = [pick_by_mouse(page, index, index + 1) for index in range(PICKS)]
    page.driver.find_element(By.ID, "done-button").click()
    page.wait("the received page", lambda d: d.current_url.rstrip("/").endswith("/received"))
    shown = page.wait("the received items with their thumbnails", lambda _: (r := page.script(RECEIVED))["ids"]
                      and all(t and t[0] > 0 for t in r["thumbs"]) and r)
    print(f"e2e:   the page says: {shown['status']}; thumbnails {shown['thumbs']}", flush=True)
    if [i.upper() for i in shown["ids"]] != [p.upper() for p in picked]:
        raise StepFailed(f"the received page shows {shown['ids']}, the person picked {picked}")
    listed = [item["id"] for item in client.items(session_id)]
    if [i.upper() for i in listed] != [p.upper() for p in picked]:
        raise StepFailed(f"the client lists {listed}, the received page showed {shown['ids']}")
    if any(max(t) > 256 for t in shown["thumbs"]):
        raise StepFailed(f"the thumbnails should be the baseUrl's =w256-h256-c: {shown['thumbs']}")
    if '"mediaItems"' not in shown["json"] or '"baseUrl"' not in shown["json"] or '"mediaItemsSet": true' not in shown["json"]:
        raise StepFailed(f"the page should show the client API's JSON: {shown['json'][:500]}")
    if client.key in page.driver.page_source or client.key in shown["json"]:
        raise StepFailed("the client key reached the browser")
    original = urllib.parse.urljoin(page.driver.current_url, shown["downloads"][0])
    if not original.endswith("=d") or person_status(page, original) != 200:
        raise StepFailed(f"the first pick's original (=d) does not download: {original}")
    check_controls(page, "the received page", measured["smallest"])
    check_axe(page, "the received page", measured["axe"])
    page.screenshots(artifacts, "received")
    if wait_finished(client, client.session(session_id))["state"] != "complete":
        raise StepFailed("the server's own session should be complete after Done")

    scenario.begin("another session's received page is unknown; without signing in, every path of it is refused")
    other = client.create_session(max_items=1)
    for path in ("received/", "received/v1/session", f"received/v1/mediaItems?sessionId={other['id']}"):
        status = person_status(page, other["pickerUri"] + path)
        if status != 404:
            raise StepFailed(f"a client's session answers {status} at {path}, expected 404 (only the server's own has one)")
    for path in ("received/v1/session", f"received/v1/mediaItems?sessionId={session_id}", "received/"):
        status = plain_status(own_uri + path)
        if status != 401:
            raise StepFailed(f"without the person's sign-in {path} answered {status}, expected 401")
    status, _, body = client.request("GET", urllib.parse.urlparse(own_uri).path + "received/v1/session")
    if status != 401:
        raise StepFailed(f"the client key opens the person's received/ paths ({status}): {body[:200]!r}")
    client.request("DELETE", f"/v1/sessions/{other['id']}")
    print(f"e2e:   {json.dumps({'received': len(shown['ids'])})}", flush=True)
