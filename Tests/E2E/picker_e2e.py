#!/usr/bin/env python3
"""The picker end to end, in a real headless Chromium: a client program and a person.

Two principals. The client, with its key and a session's pickerUri, reaches nothing of the library
(401), and a browser that has not signed in sees the sign-in page, not the library. The person
signs in by opening the one-time link `serve` printed (it goes on to the picker of the session made
at start), which a second use refuses.

A client creates a picker session (at most 5 items, pick order) with its client key; the person
opens the session's pickerUri, goes from the album list to All Photos, picks 3 photos with the
mouse and 2 with the keyboard, is told the maximum when trying a 6th, opens the browser on a
pick, comes back and presses Done. The client then polls the session, lists exactly those 5
items in pick order, downloads one at 300x200 (fill, JPEG) and checks the JPEG's pixel size, and
the pickerUri answers 410 Gone. Screenshots of the three pages, light and dark, are saved. A second
session, with the page switched to Simplified Chinese, is cancelled and lists no items. A third
picks a range with Shift+Right x3 and shrinks it with Shift+Left x2 (the cells that fall out are
unpicked, the others keep their pick numbers), then reloads the page: the page links its files
under /ui/<version>/ and the reload fetches none of them from the server (all from the cache).

Run by scripts/e2e.sh, which starts the server:
    python3 Tests/E2E/picker_e2e.py --base http://127.0.0.1:PORT/ --key CLIENT_KEY --sign-in SIGN_IN_URL \
        --artifacts test-artifacts/e2e [--readme-screenshot]
Needs selenium (PyPI) and Debian's chromium and chromedriver on PATH.
"""

import argparse
import json
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
    sys.exit("e2e: selenium is missing: run scripts/install-e2e-dependencies.sh")
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
MAX_ITEMS = 5
MOUSE_PICKS = 3
KEYBOARD_PICKS = 2
WAIT_SECONDS = 30
# The first grid renders every thumbnail of the first screen from the originals (cold caches).
GRID_WAIT_SECONDS = 90


class StepFailed(Exception):
    """A step of the scenario did not see what it expected."""


class Scenario:
    """Names the current step, so that a failure says where it happened."""

    def __init__(self):
        self.step = "start"

    def begin(self, step):
        self.step = step
        print(f"e2e: {step}", flush=True)


# --- The client program's side: plain HTTP with the client key -----------------------------


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


def person_status(page, url):
    """The HTTP status of a GET with the cookies of the person's browser (HttpOnly ones too)."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.driver.get_cookies())
    return plain_status(url, {"Cookie": cookies})


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


# --- The person's side: the web picker in headless Chromium ---------------------------------


def make_driver():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,860", "--lang=en-US", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        raise StepFailed("chromium and chromedriver must be on PATH (scripts/install-e2e-dependencies.sh)")
    options.binary_location = chromium
    return webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))


class Page:
    """The picker page, through the hooks of the DOM contract (notes: ui-contract)."""

    VIEWS = ("albums-view", "grid-view", "browser-view")

    def __init__(self, driver):
        self.driver = driver

    def wait(self, what, condition, seconds=WAIT_SECONDS):
        """Waits until condition(driver) is truthy and returns it; fails naming what and what is seen."""
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.05,
                                 ignored_exceptions=[StaleElementReferenceException]).until(condition)
        except TimeoutException:
            raise StepFailed(f"waited {seconds} s for {what}; the page shows: {self.describe()}") from None

    def script(self, source, *arguments):
        return self.driver.execute_script(source, *arguments)

    def visible_views(self):
        return self.script("return arguments[0].filter(id => { const e = document.getElementById(id);"
                           " return e && !e.hidden; });", list(self.VIEWS))

    def wait_view(self, view, seconds=WAIT_SECONDS):
        self.wait(f"#{view} to be the only view shown", lambda _: self.visible_views() == [view], seconds)

    def wait_grid_ready(self):
        self.wait("the grid's first screen (data-grid-ready=true)",
                  lambda d: d.execute_script("return document.documentElement.dataset.gridReady") == "true",
                  GRID_WAIT_SECONDS)

    def text(self, selector):
        return self.script("const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
                           selector)

    def describe(self):
        """A short account of the page's state for failure messages."""
        try:
            return json.dumps(self.script("""
                const text = s => { const e = document.querySelector(s); return e ? e.textContent.trim() : null; };
                const active = document.activeElement;
                return {url: location.href, views: arguments[0].filter(id => { const e = document.getElementById(id);
                          return e && !e.hidden; }),
                        status: text('#status-message'), count: text('#selection-count'),
                        gridReady: document.documentElement.dataset.gridReady ?? null,
                        cells: document.querySelectorAll('#grid .cell').length,
                        selected: [...document.querySelectorAll('#grid .cell[aria-selected="true"]')]
                                    .map(c => c.dataset.index),
                        focused: active ? (active.id || active.className || active.tagName) : null,
                        finished: document.getElementById('finished')?.dataset.state ?? null,
                        title: document.title};""", list(self.VIEWS)))
        except WebDriverException as error:
            return f"(the page could not be read: {error.msg})"

    def images_loaded(self, container_selector):
        """Whether every <img> of the container that is on screen finished loading with pixels."""
        return self.script("""
            const onScreen = e => { const b = e.getBoundingClientRect();
                return b.width > 0 && b.bottom > 0 && b.top < innerHeight && b.right > 0 && b.left < innerWidth; };
            const images = [...document.querySelectorAll(arguments[0] + ' img')].filter(onScreen);
            return images.length > 0 && images.every(i => i.complete && i.naturalWidth > 0);""",
                           container_selector)

    def cell(self, index):
        cells = self.driver.find_elements(By.CSS_SELECTOR, f'#grid .cell[data-index="{index}"]')
        if not cells:
            raise StepFailed(f"no grid cell with data-index {index}; the page shows: {self.describe()}")
        return cells[0]

    def focused_cell_index(self):
        return self.script("const e = document.activeElement;"
                           " return e && e.classList.contains('cell') ? Number(e.dataset.index) : null;")

    def press(self, key):
        ActionChains(self.driver).send_keys(key).perform()

    def next_frame(self):
        """Returns after the page painted twice (styles applied, e.g. after a colour scheme change)
        and its finite CSS transitions and animations ended (a colour fade, say)."""
        self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            " requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")
        try:
            WebDriverWait(self.driver, 5, poll_frequency=0.05).until(lambda d: d.execute_script(
                "return document.getAnimations().every(a => a.playState !== 'running'"
                " || a.effect?.getTiming().iterations === Infinity);"))
        except TimeoutException:
            pass  # a screenshot mid-fade is still a screenshot

    def screenshots(self, artifacts, name):
        """Saves NAME-light.png and NAME-dark.png (prefers-color-scheme emulated); returns the light one."""
        paths = {}
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            self.next_frame()
            paths[scheme] = artifacts / f"{name}-{scheme}.png"
            self.driver.save_screenshot(str(paths[scheme]))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "light"}]})
        self.next_frame()
        return paths["light"]

    def console_errors(self):
        try:
            return [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]
        except WebDriverException:
            return []


# --- The scenario ---------------------------------------------------------------------------


def wait_selected(page, index, number):
    """Waits until cell `index` is selected with pick badge `number`; returns its asset id."""
    def selected(_):
        cell = page.cell(index)
        if cell.get_attribute("aria-selected") != "true":
            return False
        badges = cell.find_elements(By.CSS_SELECTOR, ".pick-badge")
        return cell.get_attribute("data-asset-id") if badges and badges[0].text.strip() == str(number) else False
    return page.wait(f"cell {index} to be selected with pick badge {number}", selected)


def pick_by_mouse(page, index, number):
    cell = page.cell(index)
    if cell.get_attribute("aria-selected") != "false":
        raise StepFailed(f"cell {index} should start unselected, is aria-selected={cell.get_attribute('aria-selected')!r}")
    ActionChains(page.driver).move_to_element(cell).click().perform()
    asset_id = wait_selected(page, index, number)
    if page.visible_views() != ["grid-view"]:
        raise StepFailed(f"clicking cell {index} should select it in the grid; the page shows {page.describe()}")
    return asset_id


def move_focus(page, key, expected_index):
    page.press(key)
    page.wait(f"focus on cell {expected_index} after {key_name(key)}",
              lambda _: page.focused_cell_index() == expected_index)


def key_name(key):
    names = {Keys.ARROW_RIGHT: "ArrowRight", Keys.ARROW_LEFT: "ArrowLeft", Keys.SPACE: "Space",
             Keys.ENTER: "Enter", Keys.ESCAPE: "Escape"}
    return names.get(key, repr(key))


def run(arguments, scenario):
    artifacts = Path(arguments.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    client = Client(arguments.base, arguments.key)

    scenario.begin("the client creates a session (maxItemCount 5, order pick)")
    session = client.create_session(max_items=MAX_ITEMS, order="pick")
    picker_uri = session["pickerUri"]
    if session["mediaItemsSet"] or session["pickingConfig"]["maxItemCount"] != str(MAX_ITEMS) or session["order"] != "pick":
        raise StepFailed(f"unexpected new session: {session}")

    scenario.begin("the client, with its key and the pickerUri, reaches nothing of the library")
    client_reaches_nothing(client, picker_uri)

    driver = make_driver()
    page = Page(driver)
    try:
        sign_in(page, arguments.sign_in, artifacts, scenario)
        run_browser(page, picker_uri, artifacts, scenario, arguments)
        picked = page.picked
        check_results(page, client, session, picked, artifacts, scenario)
        run_cancel(page, client, artifacts, scenario)
        run_range_and_reload(page, client, artifacts, scenario)
    except Exception:
        report_page(page, artifacts, scenario)
        raise
    finally:
        driver.quit()


def sign_in(page, sign_in_url, artifacts, scenario):
    """A browser that has not signed in sees the sign-in page; the printed link signs it in once."""
    scenario.begin("a fresh browser without the person's cookie sees the sign-in page, not the library")
    trial = urllib.parse.parse_qs(urllib.parse.urlparse(sign_in_url).query).get("next", [None])[0]
    if not trial:
        raise StepFailed(f"the printed sign-in link does not go on to a picker: {sign_in_url}")
    base = sign_in_url.split("/signin/")[0]
    page.driver.get(base + trial)
    heading = page.wait("the sign-in page's heading", lambda d: d.find_elements(By.TAG_NAME, "h1"))[0].text
    if "Sign in" not in heading or page.driver.find_elements(By.ID, "album-list"):
        raise StepFailed(f"without signing in the picker page should be the sign-in page; it shows {heading!r}: {page.describe()}")
    page.driver.save_screenshot(str(artifacts / "sign-in-required.png"))

    scenario.begin("the printed one-time link signs the browser in and opens the picker")
    page.driver.get(sign_in_url)
    page.wait_view("albums-view")
    cookies = page.driver.get_cookies()
    person = [c for c in cookies if c["name"].startswith("assets_picker_person")]
    if not person or not person[0].get("httpOnly") or person[0].get("sameSite") != "Strict":
        raise StepFailed(f"the person's cookie should be HttpOnly and SameSite=Strict: {cookies}")
    if page.script("return document.cookie") != "":
        raise StepFailed("the page's scripts can read the person's cookie")

    scenario.begin("the link works only once")
    status = plain_status(sign_in_url)
    if status != 401:
        raise StepFailed(f"the used sign-in link answered {status}, expected 401")


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


def check_results(page, client, session, picked, artifacts, scenario):
    """The client's side after Done: the picks, in pick order, a rendition, the pickerUri gone."""
    picker_uri = session["pickerUri"]
    scenario.begin("the client polls the session until mediaItemsSet")
    current = wait_finished(client, session)
    if current["state"] != "complete" or current.get("pickedCount") != MAX_ITEMS:
        raise StepFailed(f"after Done the session should be complete with {MAX_ITEMS} items: {current}")

    scenario.begin("the client lists the items: exactly the 5 picks, in pick order")
    items = client.items(session["id"])
    listed = [item["id"] for item in items]
    if [i.upper() for i in listed] != [p.upper() for p in picked]:
        raise StepFailed(f"listed items {listed} differ from the picks in pick order {picked}")
    for item in items:
        for key in ("id", "createTime", "type", "mediaFile"):
            if key not in item:
                raise StepFailed(f"item {item.get('id')} lacks {key!r}: {item}")

    scenario.begin("the client downloads one item at 300x200, cropped (baseUrl=w300-h200-c)")
    item = next((i for i in items if i["type"] == "PHOTO"), items[0])
    path = item["mediaFile"]["baseUrl"] + "=w300-h200-c"
    status, headers, body = client.request("GET", path)
    if status != 200:
        raise StepFailed(f"GET {path} answered {status}: {body[:300]!r}")
    content_type = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
    if not content_type.startswith("image/jpeg"):
        raise StepFailed(f"GET {path} answered Content-Type {content_type!r}, expected image/jpeg")
    size = jpeg_pixel_size(body)
    if size != (300, 200):
        raise StepFailed(f"the 300x200 fill rendition of {item['id']} is {size[0]}x{size[1]}")
    (artifacts / "item-300x200.jpg").write_bytes(body)

    scenario.begin("the pickerUri answers 410 Gone after Done (to the person; 401 to anyone else)")
    for url in (picker_uri, picker_uri + "api/session"):
        status = person_status(page, url)
        if status != 410:
            raise StepFailed(f"GET {url} answered {status} after Done, expected 410")
        status = plain_status(url)
        if status != 401:
            raise StepFailed(f"GET {url} without the person's cookie answered {status} after Done, expected 401")

    scenario.begin("the client deletes the session")
    status, _, body = client.request("DELETE", f"/v1/sessions/{session['id']}")
    if status != 200:
        raise StepFailed(f"DELETE answered {status}: {body[:300]!r}")


def run_browser(page, picker_uri, artifacts, scenario, arguments):
    page.picked = []

    scenario.begin("the browser opens the pickerUri: the album list")
    page.driver.get(picker_uri)
    page.wait_view("albums-view")
    albums = page.wait("album buttons in #album-list",
                       lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list li button.album[data-album-id]"))
    first_title = albums[0].find_element(By.CSS_SELECTOR, ".album-title").text.strip()
    first_count = albums[0].find_element(By.CSS_SELECTOR, ".album-count").text.strip()
    if first_title != "All Photos":
        raise StepFailed(f"the first album should be All Photos, is {first_title!r}")
    if not first_count.isdigit() or int(first_count) <= MAX_ITEMS:
        raise StepFailed(f"All Photos should count more than {MAX_ITEMS} items, shows {first_count!r}")
    page.wait("album posters to load", lambda _: page.images_loaded("#album-list"))
    page.screenshots(artifacts, "albums")

    scenario.begin("All Photos opens the grid and its first screen loads")
    albums[0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    total = page.script("return Number(document.getElementById('grid').dataset.total)")
    if total != int(first_count):
        raise StepFailed(f"#grid data-total is {total}, the album list said {first_count}")
    if page.text("#selection-count") != "0":
        raise StepFailed(f"#selection-count should start at 0, shows {page.text('#selection-count')!r}")

    scenario.begin(f"picks {MOUSE_PICKS} by mouse (clicking cells)")
    for index in range(MOUSE_PICKS):
        page.picked.append(pick_by_mouse(page, index, len(page.picked) + 1))

    scenario.begin(f"picks {KEYBOARD_PICKS} by keyboard (arrows and Space)")
    if page.focused_cell_index() != MOUSE_PICKS - 1:
        # A click need not move focus; the roving tabindex follows focus given to a cell.
        page.script("arguments[0].focus()", page.cell(MOUSE_PICKS - 1))
    page.wait(f"focus on cell {MOUSE_PICKS - 1}", lambda _: page.focused_cell_index() == MOUSE_PICKS - 1)
    for index in range(MOUSE_PICKS, MOUSE_PICKS + KEYBOARD_PICKS):
        move_focus(page, Keys.ARROW_RIGHT, index)
        page.press(Keys.SPACE)
        page.picked.append(wait_selected(page, index, len(page.picked) + 1))
    if page.text("#selection-count") != str(MAX_ITEMS):
        page.wait(f"#selection-count to show {MAX_ITEMS}", lambda _: page.text("#selection-count") == str(MAX_ITEMS))
    if not page.text("#selection-size"):
        raise StepFailed("#selection-size is empty with 5 picks")

    scenario.begin("a 6th pick is refused with the maximum message")
    sixth = MAX_ITEMS
    move_focus(page, Keys.ARROW_RIGHT, sixth)
    page.press(Keys.SPACE)
    message = page.wait("#status-message to mention the maximum (5)",
                        lambda _: (page.text("#status-message") or "") if str(MAX_ITEMS) in (page.text("#status-message") or "") else False)
    print(f"e2e:   the page says: {message}")
    if page.cell(sixth).get_attribute("aria-selected") != "false":
        raise StepFailed(f"the 6th cell was selected past the maximum: {page.describe()}")
    if page.text("#selection-count") != str(MAX_ITEMS):
        raise StepFailed(f"#selection-count should stay {MAX_ITEMS}: {page.describe()}")
    for number, asset_id in enumerate(page.picked, start=1):
        badge = page.script("""const c = document.querySelector(`#grid .cell[data-asset-id="${arguments[0]}"]`);
                               const b = c && c.querySelector('.pick-badge'); return b ? b.textContent.trim() : null;""",
                            asset_id)
        if badge != str(number):
            raise StepFailed(f"pick {number} ({asset_id}) shows badge {badge!r}")
    page.wait("the grid's thumbnails to be loaded", lambda _: page.images_loaded("#grid"))
    light_grid = page.screenshots(artifacts, "grid")

    scenario.begin("Enter opens the browser on a picked cell; the large image loads")
    move_focus(page, Keys.ARROW_LEFT, sixth - 1)
    page.press(Keys.ENTER)
    page.wait_view("browser-view")
    page.wait("#browser-image (or #browser-video) to load in its final quality", lambda _: page.script("""
        const image = document.getElementById('browser-image');
        const video = document.getElementById('browser-video');
        if (image && !image.hidden && image.getAttribute('src'))
            return image.complete && image.naturalWidth > 0 && image.dataset.quality === 'final';
        return !!(video && !video.hidden && video.readyState >= 1);"""), GRID_WAIT_SECONDS)
    large = page.script("const i = document.getElementById('browser-image');"
                        " return i && !i.hidden ? [i.naturalWidth, i.naturalHeight] : null;")
    if large and max(large) < 512:
        raise StepFailed(f"the browser's image is only {large[0]}x{large[1]}: not the large image")
    pressed = page.script("const b = document.getElementById('browser-select'); return b && b.getAttribute('aria-pressed');")
    if pressed != "true":
        raise StepFailed(f"#browser-select should be aria-pressed=true for a pick, is {pressed!r}")
    page.screenshots(artifacts, "browser")

    scenario.begin("back to the grid, picks kept")
    page.driver.find_element(By.ID, "browser-close").click()
    page.wait_view("grid-view")
    if page.text("#selection-count") != str(MAX_ITEMS):
        raise StepFailed(f"#selection-count after closing the browser: {page.describe()}")

    scenario.begin("Done finishes the session")
    page.driver.find_element(By.ID, "done-button").click()
    page.wait('#finished[data-state="complete"]', lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="complete"]'))

    errors = page.console_errors()
    if errors:
        print("e2e: note: the browser console logged errors (not a failure):")
        for entry in errors:
            print(f"e2e:   {entry.get('message')}")

    if arguments.readme_screenshot:
        target = REPOSITORY / "docs" / "screenshots" / "picker-grid.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(light_grid, target)
        print(f"e2e: copied the light grid screenshot to {target.relative_to(REPOSITORY)}")


def run_cancel(page, client, artifacts, scenario):
    """A second session: the page switched to Simplified Chinese, one pick, then Cancel; the client
    gets a finished session with no items."""
    scenario.begin("a second session: the page in Simplified Chinese")
    session = client.create_session(max_items=3)
    page.driver.get(session["pickerUri"])
    page.wait_view("albums-view")
    page.wait("album buttons in #album-list",
              lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))
    english = page.text("#done-button")
    Select(page.driver.find_element(By.ID, "language-select")).select_by_value("zh-CN")
    page.wait(f"#done-button to change from {english!r} in Simplified Chinese",
              lambda _: page.text("#done-button") not in (english, None, ""))
    page.wait("album posters to load", lambda _: page.images_loaded("#album-list"))
    page.driver.save_screenshot(str(artifacts / "albums-zh-CN.png"))

    scenario.begin("one pick, then Cancel ends the session with no items")
    page.driver.find_element(By.CSS_SELECTOR, "#album-list button.album").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    pick_by_mouse(page, 0, 1)
    page.driver.find_element(By.ID, "cancel-button").click()
    page.wait('#finished[data-state="cancelled"]',
              lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="cancelled"]'))
    current = wait_finished(client, session)
    if current["state"] != "cancelled":
        raise StepFailed(f"after Cancel the session should be cancelled: {current}")
    items = client.items(session["id"])
    if items:
        raise StepFailed(f"a cancelled session lists {len(items)} items: {[i['id'] for i in items]}")
    status = person_status(page, session["pickerUri"])
    if status != 410:
        raise StepFailed(f"GET the pickerUri answered {status} after Cancel, expected 410")


def shift_press(page, key):
    ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT).perform()


def picks_shown(page):
    """{cell index: pick badge text} of the selected cells in the DOM, and #selection-count."""
    return page.script("""
        const picks = {};
        for (const c of document.querySelectorAll('#grid .cell[aria-selected="true"]'))
            picks[c.dataset.index] = c.querySelector('.pick-badge')?.textContent.trim() ?? null;
        return [picks, document.getElementById('selection-count').textContent.trim()];""")


def wait_picks(page, expected):
    """Waits until exactly the cells of `expected` ({index: pick number}) are selected with those badges."""
    wanted = [{str(index): str(number) for index, number in expected.items()}, str(len(expected))]
    page.wait(f"exactly cells {sorted(expected)} selected with pick badges {wanted[0]} (count {wanted[1]})",
              lambda _: picks_shown(page) == wanted)


def run_range_and_reload(page, client, artifacts, scenario):
    """A third session: a keyboard range grows and shrinks from its anchor; a reload of the page
    takes every /ui/ file from the browser's cache."""
    scenario.begin("a third session: the page links its files under /ui/<version>/, immutable")
    session = client.create_session(max_items=10, order="pick")
    page.driver.get(session["pickerUri"])
    page.wait_view("albums-view")
    links = page.script("return [...document.querySelectorAll('link[href], script[src]')]"
                        ".map(e => e.getAttribute('href') ?? e.getAttribute('src'));")
    prefixes = {"/".join(link.split("/")[:3]) for link in links}
    version = next(iter(prefixes)).split("/")[2] if len(prefixes) == 1 else None
    if not version or not all(link.startswith(f"/ui/{version}/") and link.count("/") == 3 for link in links):
        raise StepFailed(f"the page should link only /ui/<version>/<file> URLs, links {links}")
    status, headers, _ = client.request("GET", f"/ui/{version}/app.js")
    cache_control = {k.lower(): v for k, v in headers.items()}.get("cache-control", "")
    if status != 200 or "immutable" not in cache_control:
        raise StepFailed(f"GET /ui/{version}/app.js answered {status} with Cache-Control {cache_control!r}")

    scenario.begin("Shift+Right x3 from a click picks a range of 4 in order")
    page.wait("album buttons in #album-list",
              lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album[data-album-id]"))
    page.driver.find_element(By.CSS_SELECTOR, "#album-list button.album").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    pick_by_mouse(page, 0, 1)
    page.wait("focus on cell 0", lambda _: page.focused_cell_index() == 0)
    for index in (1, 2, 3):
        shift_press(page, Keys.ARROW_RIGHT)
        page.wait(f"focus on cell {index} after Shift+ArrowRight", lambda _: page.focused_cell_index() == index)
    wait_picks(page, {0: 1, 1: 2, 2: 3, 3: 4})

    scenario.begin("Shift+Left x2 shrinks the range back toward its anchor")
    for index in (2, 1):
        shift_press(page, Keys.ARROW_LEFT)
        page.wait(f"focus on cell {index} after Shift+ArrowLeft", lambda _: page.focused_cell_index() == index)
    wait_picks(page, {0: 1, 1: 2})
    page.wait("the grid's thumbnails to be loaded", lambda _: page.images_loaded("#grid"))
    page.screenshots(artifacts, "grid-range")

    scenario.begin("a reload takes every /ui/ file from the browser's cache")
    page.driver.refresh()
    page.wait_view("albums-view")
    page.wait("album buttons in #album-list",
              lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album[data-album-id]"))
    navigation, entries = page.script("""
        return [performance.getEntriesByType('navigation')[0]?.type,
                performance.getEntriesByType('resource').filter(e => new URL(e.name).pathname.startsWith('/ui/'))
                  .map(e => [new URL(e.name).pathname, e.transferSize])];""")
    if navigation != "reload":
        raise StepFailed(f"the page's navigation type after refresh() is {navigation!r}, expected 'reload'")
    fetched = [entry for entry in entries if entry[1] != 0]
    print(f"e2e:   {len(entries)} /ui/ resources after the reload, {len(fetched)} of them over the network")
    if not entries:
        raise StepFailed("the reloaded page lists no /ui/ resources in its performance entries")
    if fetched:
        raise StepFailed(f"the reload fetched /ui/ files from the server (transferSize > 0): {fetched}")
    if page.text("#selection-count") != "2":
        raise StepFailed(f"after the reload #selection-count should still be 2: {page.describe()}")

    scenario.begin("Cancel ends the third session")
    page.driver.find_element(By.ID, "cancel-button").click()
    page.wait('#finished[data-state="cancelled"]',
              lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="cancelled"]'))


def report_page(page, artifacts, scenario):
    """After a failure: a screenshot, the page's HTML and the browser console's errors."""
    try:
        page.driver.save_screenshot(str(artifacts / "failure.png"))
        (artifacts / "failure.html").write_text(page.driver.page_source)
    except WebDriverException:
        pass
    print(f"e2e: the page at failure: {page.describe()}", file=sys.stderr)
    errors = page.console_errors()
    print(f"e2e: browser console errors ({len(errors)}):", file=sys.stderr)
    for entry in errors:
        print(f"e2e:   {entry.get('message')}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the server's URL, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--key", required=True, help="the server's client key")
    parser.add_argument("--sign-in", required=True, help="the one-time sign-in link the server printed (signInUrl)")
    parser.add_argument("--artifacts", default="test-artifacts/e2e", help="where screenshots go")
    parser.add_argument("--readme-screenshot", action="store_true",
                        help="also copy the light grid screenshot to docs/screenshots/picker-grid.png")
    arguments = parser.parse_args()
    scenario = Scenario()
    try:
        run(arguments, scenario)
    except StepFailed as failure:
        print(f"e2e: FAILED at step '{scenario.step}': {failure}", file=sys.stderr)
        return 1
    except WebDriverException as error:
        print(f"e2e: FAILED at step '{scenario.step}': the browser reported: {error.msg}", file=sys.stderr)
        return 1
    print("e2e: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
