"""The picker on a phone (390 x 844 CSS pixels, touch), on a library with folders, after a while.

A server of its own on an indexed library laid out as a camera card and a person's folders:
DCIM/100APPLE and DCIM/101APPLE (DCIM holds only folders), Holidays/Beach.
What must be true:
- the grid shows at least 4 columns over at least 72 % of the screen's height;
- the grid's tools fit the screen's width, wrapping rather than scrolling sideways;
- every visible control (Back, the language, Cancel, Done, the toolbar, the cells' Open) is at
  least 44 x 44 CSS pixels; the upload is a button, the bare file input hidden under it;
- DCIM opens as a folder of its two albums (not an album "DCIM 0"), and Back leaves it;
- an upload says where the photo went (Imports), in the information style (not red), and the grid
  does not move;
- a grid scrolled down, left for the albums and another album, opens again where it was;
- in the large image a swipe leftwards goes to the next photo, rightwards back; the arrow keys too;
- an empty album (one made with New album) says what it is and what to do;
- Cancel with picks asks first: "Keep picking" keeps them, confirming ends the session;
- the finished page of the server's own session leads to the demo client page, where a session made
  as an app does, two picks and Done list the two with their thumbnails, nothing wider than the screen;
- axe-core finds no violation on the sign-in page, the album list, a folder, the grid, the large image, an
  empty album, the finished page and the demo client page.
"""

import shutil
import tempfile
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from e2e_axe import check_axe, check_controls
from e2e_common import StepFailed
from e2e_demo_client import check_no_sideways_scroll, run_phone_demo_client
from e2e_library_server import LibraryServer, SOURCES, corpus
from e2e_page import PHONE, Page, make_driver, report_page

LAYOUT = {"DCIM/100APPLE": 150, "DCIM/101APPLE": 30, "Holidays/Beach": 12}
MIN_COLUMNS = 4
MIN_GRID_SHARE = 0.72
SCROLLED_PX = 2400

GRID_GEOMETRY = """
    const grid = document.getElementById('grid'), box = grid.getBoundingClientRect();
    const row = grid.querySelector('.grid-row');
    return {columns: Number(grid.getAttribute('aria-colcount')), cellsInRow: row ? row.querySelectorAll('.cell').length : 0,
            top: box.top, height: box.height, screen: innerHeight, width: innerWidth};"""

STATUS = """
    const s = document.getElementById('status-message'), style = getComputedStyle(s);
    return {text: s.textContent.trim(), kind: s.dataset.kind, color: style.color, background: style.backgroundColor,
            position: style.position};"""

# The grid's tools: every one inside the screen, none scrolled out of view.
TOOLBAR = """
    const bar = document.querySelector('#grid-view .toolbar');
    return {scroll: bar.scrollWidth, width: bar.clientWidth, rows: new Set([...bar.children].filter(c => c.offsetWidth)
                .map(c => { const b = c.getBoundingClientRect(); return Math.round((b.top + b.bottom) / 2); })).size,
            outside: [...bar.querySelectorAll('button, select, label.upload')].filter(c => { const b = c.getBoundingClientRect();
                return b.width && (b.left < 0 || b.right > innerWidth); }).map(c => c.id || c.className)};"""

DANGER = """
    const probe = document.createElement('span'); probe.style.color = 'var(--danger)'; document.body.append(probe);
    const color = getComputedStyle(probe).color; probe.remove(); return color;"""


def run_phone(binary, artifacts, scenario, measured):
    """The scenario on its own server and a phone-sized browser; both stopped whatever happens."""
    scenario.begin(f"a phone ({PHONE[0]}x{PHONE[1]}, touch) on a library with folders {sorted(LAYOUT)}")
    server = LibraryServer(binary, backend="indexed", log_name="phone-server.log", layout=LAYOUT)
    driver = make_driver(phone=True)
    page = Page(driver)
    try:
        phone_scenario(page, server, artifacts, scenario, measured)
    except Exception:
        report_page(page, artifacts, scenario)
        raise
    finally:
        driver.quit()
        server.stop(artifacts)


def album_button(page, title):
    buttons = page.driver.find_elements(By.CSS_SELECTOR, "#album-list button.album, #album-list button.folder")
    for button in buttons:
        if button.find_element(By.CSS_SELECTOR, ".album-title").text.strip() == title:
            return button
    raise StepFailed(f"no album or folder titled {title!r}; the list shows "
                     f"{[b.find_element(By.CSS_SELECTOR, '.album-title').text for b in buttons]}")


def listed_titles(page):
    return page.script("return [...document.querySelectorAll('#album-list li')].map(li => ["
                       "li.firstElementChild.className, li.querySelector('.album-title').textContent])")


def phone_scenario(page, server, artifacts, scenario, measured):
    axe, smallest = measured["axe"], measured["smallest"]
    own = urllib.parse.parse_qs(urllib.parse.urlparse(server.sign_in).query)["next"][0]
    page.driver.get(server.base.rstrip("/") + own)
    page.wait("the sign-in page", lambda d: "Sign in" in (page.text("h1") or ""))
    check_axe(page, "the phone's sign-in page", axe)
    page.driver.get(server.sign_in)
    page.wait_view("albums-view")
    page.wait("album buttons", lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))
    page.wait("album posters to load", lambda _: page.images_loaded("#album-list"))

    scenario.begin("phone: DCIM, which holds only folders, is a folder of its two albums, not an album 'DCIM 0'")
    top = listed_titles(page)
    if ["album", "DCIM"] in top or ["folder", "DCIM"] not in top:
        raise StepFailed(f"the album list should show DCIM as a folder: {top}")
    if any(title in ("100APPLE", "101APPLE") for _, title in top):
        raise StepFailed(f"the albums inside DCIM should not be listed at the top: {top}")
    page.driver.save_screenshot(str(artifacts / "phone-albums.png"))
    check_controls(page, "the phone's album list", smallest)
    check_axe(page, "the phone's album list", axe)
    album_button(page, "DCIM").click()
    page.wait("DCIM's own list", lambda _: sorted(t for _, t in listed_titles(page)) == ["100APPLE", "101APPLE"])
    if page.text("#view-title") != "DCIM" or page.script("return document.getElementById('back-button').hidden"):
        raise StepFailed(f"in the folder, the title should be DCIM with Back shown: {page.describe()}")
    check_axe(page, "a folder of albums (phone)", axe)
    page.driver.find_element(By.ID, "back-button").click()
    page.wait("the top level again", lambda _: ["folder", "DCIM"] in listed_titles(page))

    scenario.begin(f"phone: All Photos shows at least {MIN_COLUMNS} columns over at least {MIN_GRID_SHARE:.0%} of the height")
    album_button(page, "All Photos").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    geometry = page.script(GRID_GEOMETRY)
    share = geometry["height"] / geometry["screen"]
    measured["phone"] = dict(columns=geometry["columns"], share=round(share * 100, 1))
    print(f"e2e:   {geometry['columns']} columns ({geometry['cellsInRow']} cells in a row), the grid "
          f"{geometry['height']:.0f} of {geometry['screen']} px high ({share:.1%})", flush=True)
    if geometry["columns"] < MIN_COLUMNS or geometry["cellsInRow"] < MIN_COLUMNS:
        raise StepFailed(f"the phone's grid has {geometry['columns']} columns, fewer than {MIN_COLUMNS}")
    if share < MIN_GRID_SHARE:
        raise StepFailed(f"the phone's grid takes {share:.1%} of the height, under {MIN_GRID_SHARE:.0%}")
    page.wait("the grid's thumbnails to be loaded", lambda _: page.images_loaded("#grid"))
    page.screenshots(artifacts, "phone-grid")
    toolbar = page.script(TOOLBAR)
    print(f"e2e:   the grid's tools: {toolbar['rows']} rows, {toolbar['scroll']} px of content in {toolbar['width']} px", flush=True)
    if toolbar["scroll"] > toolbar["width"] or toolbar["outside"]:
        raise StepFailed(f"the grid's tools do not fit the phone's width (they would scroll sideways): {toolbar}")
    check_no_sideways_scroll(page, "the phone's grid")
    check_controls(page, "the phone's grid", smallest)
    check_axe(page, "the phone's grid", axe)

    scenario.begin("phone: the upload is a styled button; an upload says where it went, as information, and the grid stays put")
    upload = page.script("""const label = document.querySelector('label.upload'), input = document.getElementById('upload-input');
        const l = label.getBoundingClientRect(), i = input.getBoundingClientRect();
        return {label: [l.width, l.height], input: [i.width, i.height], text: label.textContent.trim(),
                opacity: getComputedStyle(input).opacity};""")
    if min(upload["label"]) < 44 or max(upload["input"]) > 1 or upload["opacity"] != "0" or "Choose" in upload["text"]:
        raise StepFailed(f"the upload should be a button with the file input hidden under it: {upload}")
    grid_top = page.script(GRID_GEOMETRY)["top"]
    # A name with spaces: the page sends it percent-encoded, and the library keeps it as it is (not "upload+me.jpg").
    photo = Path(tempfile.mkdtemp(prefix="assets-picker-e2e-upload.")) / "upload me.jpg"
    shutil.copyfile(corpus() / "A_camera_exif" / SOURCES[0], photo)
    try:
        page.driver.find_element(By.ID, "upload-input").send_keys(str(photo))
        status = page.wait("the upload's message, naming the file as it was named",
                           lambda _: (s := page.script(STATUS))["text"].startswith("upload me.jpg") and "Imports" in s["text"] and s)
    finally:
        shutil.rmtree(photo.parent, ignore_errors=True)
    print(f"e2e:   the page says: {status['text']}", flush=True)
    if "Imports" not in status["text"] or "selected" not in status["text"]:
        raise StepFailed(f"the upload's message should say it went to Imports and was selected: {status}")
    if status["kind"] != "info" or status["background"] == page.script(DANGER) or status["position"] != "absolute":
        raise StepFailed(f"the upload's message should be information over the views, not in red: {status}")
    if page.script(GRID_GEOMETRY)["top"] != grid_top:
        raise StepFailed(f"the message moved the grid from {grid_top} px to {page.script(GRID_GEOMETRY)['top']} px")
    page.wait("the upload to be picked", lambda _: page.text("#selection-count") == "1")
    check_axe(page, "the phone's grid with a message", axe)

    scenario.begin(f"phone: All Photos scrolled to {SCROLLED_PX} px, left for the albums and Holidays/Beach, opens where it was")
    page.script("document.getElementById('grid').scrollTop = arguments[0]", SCROLLED_PX)
    page.wait("the cells where the grid was scrolled", lambda _: page.script(
        "const g = document.getElementById('grid'), b = g.getBoundingClientRect();"
        " return [...g.querySelectorAll('.cell[data-asset-id]')].some(c => { const r = c.getBoundingClientRect();"
        " return r.top >= b.top && r.bottom <= b.bottom; });"))
    left_at = page.script("return document.getElementById('grid').scrollTop")
    page.driver.find_element(By.ID, "back-button").click()
    page.wait_view("albums-view")
    album_button(page, "Holidays").click()
    page.wait("the Holidays folder's list", lambda _: [t for _, t in listed_titles(page)] == ["Beach"])
    album_button(page, "Beach").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    beach_top = page.script("return document.getElementById('grid').scrollTop")
    page.driver.find_element(By.ID, "back-button").click()  # to the Holidays folder
    page.wait("the Holidays folder's list again", lambda _: page.visible_views() == ["albums-view"]
              and page.text("#view-title") == "Holidays")
    page.driver.find_element(By.ID, "back-button").click()  # up to the top level
    page.wait("the top level", lambda _: page.text("#view-title") == "Albums")
    album_button(page, "All Photos").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    back_at = page.wait(f"All Photos at {left_at} px again",
                        lambda _: (top := page.script("return document.getElementById('grid').scrollTop")) == left_at and str(top))
    measured["scroll"] = dict(left=left_at, reopened=float(back_at), other=beach_top)
    print(f"e2e:   left at {left_at} px, reopened at {back_at} px (Beach opened at {beach_top} px)", flush=True)
    if beach_top != 0:
        raise StepFailed(f"Beach, never scrolled, opened at {beach_top} px")

    scenario.begin("phone: in the large image, a swipe leftwards shows the next photo, rightwards the previous; the arrows too")
    first = page.script("""const g = document.getElementById('grid'), b = g.getBoundingClientRect();
        return [...g.querySelectorAll('.cell[data-asset-id]')].map(c => [c, c.getBoundingClientRect()])
            .filter(([c, r]) => r.top >= b.top && r.bottom <= b.bottom)[0][0].dataset.index;""")
    page.script("document.querySelector(`#grid .cell[data-index=\"${arguments[0]}\"] .cell-open`).click()", first)
    page.wait_view("browser-view")
    start = position(page)
    page.driver.save_screenshot(str(artifacts / "phone-browser.png"))
    check_controls(page, "the phone's large image", smallest)
    check_axe(page, "the phone's large image", axe)
    swipe(page, -1)
    page.wait(f"the next photo after a leftward swipe (from {start})", lambda _: position(page) == start + 1)
    swipe(page, +1)
    page.wait("the previous photo after a rightward swipe", lambda _: position(page) == start)
    page.press(Keys.ARROW_RIGHT)
    page.wait("the next photo after ArrowRight", lambda _: position(page) == start + 1)
    page.driver.find_element(By.ID, "browser-close").click()
    page.wait_view("grid-view")

    scenario.begin("phone: an empty album, made with New album, says what it is and what to do")
    page.driver.find_element(By.ID, "new-album-button").click()
    page.wait("the New album dialog", lambda d: d.find_elements(By.CSS_SELECTOR, "#new-album-dialog[open]"))
    page.driver.find_element(By.ID, "new-album-title").send_keys("Trip")
    page.driver.find_element(By.ID, "new-album-create").click()
    page.wait("the dialog to close", lambda d: not d.find_elements(By.CSS_SELECTOR, "#new-album-dialog[open]"))
    page.driver.find_element(By.ID, "back-button").click()
    page.wait_view("albums-view")
    page.wait("the new album Trip", lambda _: ["album", "Trip"] in listed_titles(page))
    album_button(page, "Trip").click()
    page.wait_view("grid-view")
    empty = page.wait("the empty state", lambda _: page.script(
        "const e = document.getElementById('grid-empty'); return !e.hidden && e.textContent.trim();"))
    print(f"e2e:   the empty album says: {' '.join(empty.split())}", flush=True)
    if "empty" not in empty.lower() or len(empty) < 40:
        raise StepFailed(f"the empty album's state says too little: {empty!r}")
    check_axe(page, "an empty album (phone)", axe)

    scenario.begin("phone: Cancel with a pick asks first; Keep picking keeps it, confirming ends the session")
    page.driver.find_element(By.ID, "cancel-button").click()
    page.wait("the Cancel question", lambda d: d.find_elements(By.CSS_SELECTOR, "#cancel-dialog[open]"))
    check_controls(page, "the Cancel question", smallest)
    page.driver.find_element(By.ID, "cancel-keep").click()
    page.wait("the question to close", lambda d: not d.find_elements(By.CSS_SELECTOR, "#cancel-dialog[open]"))
    if page.visible_views() != ["grid-view"] or page.text("#selection-count") != "1":
        raise StepFailed(f"Keep picking should keep the picks and the grid: {page.describe()}")
    page.driver.find_element(By.ID, "cancel-button").click()
    page.wait("the Cancel question again", lambda d: d.find_elements(By.CSS_SELECTOR, "#cancel-dialog[open]"))
    page.driver.find_element(By.ID, "cancel-confirm").click()
    page.wait('#finished[data-state="cancelled"]', lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="cancelled"]'))
    check_controls(page, "the phone's finished page", smallest)
    check_axe(page, "the phone's finished page", axe)

    run_phone_demo_client(page, server.key, artifacts, scenario, measured)


def position(page):
    """The 1-based position the large image's caption shows ("name · 3 of 193")."""
    caption = page.text("#browser-caption") or ""
    try:
        return int(caption.rsplit("·", 1)[1].split()[0])
    except (IndexError, ValueError):
        return None


def swipe(page, direction):
    """A one-finger swipe across the photo, leftwards (-1) or rightwards (+1), as touch events."""
    box = page.script("const b = document.getElementById('browser-stage').getBoundingClientRect();"
                      " return [b.left, b.top, b.width, b.height];")
    y = box[1] + box[3] / 2
    start_x = box[0] + box[2] * (0.8 if direction < 0 else 0.2)
    end_x = box[0] + box[2] * (0.2 if direction < 0 else 0.8)
    send = page.driver.execute_cdp_cmd
    send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start_x, "y": y}]})
    for step in range(1, 6):
        send("Input.dispatchTouchEvent", {"type": "touchMove",
                                          "touchPoints": [{"x": start_x + (end_x - start_x) * step / 5, "y": y}]})
    send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
