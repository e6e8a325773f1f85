"""The first session: the person picks by mouse and keyboard, opens the browser, presses Done;
the client lists the picks in pick order and downloads a rendition."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from e2e_axe import check_axe, check_controls
from e2e_client import jpeg_pixel_size, plain_status, wait_finished
from e2e_common import GRID_WAIT_SECONDS, KEYBOARD_PICKS, MAX_ITEMS, MOUSE_PICKS, StepFailed
from e2e_page import move_focus, person_status, pick_by_mouse, wait_selected


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
    check_controls(page, "the album list", page.measured["smallest"])
    check_axe(page, "the album list", page.measured["axe"])
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
    # The first screen's cells are made bare (thumbnail and name) and decorated once it is shown.
    cells = page.script("""return [...document.querySelectorAll('#grid .cell[data-asset-id]')].map(c => ({
        bare: c.hasAttribute('data-bare'), open: c.querySelectorAll('.cell-open[aria-label]').length,
        video: c.dataset.media === 'video', duration: c.querySelectorAll('.video-duration').length}));""")
    undecorated = [index for index, cell in enumerate(cells)
                   if cell["bare"] or cell["open"] != 1 or cell["duration"] != (1 if cell["video"] else 0)]
    if not cells or undecorated:
        raise StepFailed(f"cells without their Open button or video duration once the first screen shows: "
                         f"{undecorated} of {len(cells)}")
    geometry = page.script("const g = document.getElementById('grid');"
                           " return [Number(g.getAttribute('aria-colcount')), g.getBoundingClientRect().height, innerHeight, innerWidth];")
    page.measured["desktop"] = dict(columns=geometry[0], share=round(100 * geometry[1] / geometry[2], 1))
    print(f"e2e:   {geometry[3]}x{geometry[2]}: {geometry[0]} columns, the grid {geometry[1]:.0f} px high "
          f"({geometry[1] / geometry[2]:.1%})", flush=True)
    if geometry[0] < 4:
        raise StepFailed(f"the grid shows {geometry[0]} columns at {geometry[3]} px")
    check_controls(page, "the grid", page.measured["smallest"])
    check_axe(page, "the grid", page.measured["axe"])

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
    check_controls(page, "the large image", page.measured["smallest"])
    check_axe(page, "the large image", page.measured["axe"])
    page.screenshots(artifacts, "browser")

    scenario.begin("back to the grid, picks kept")
    page.driver.find_element(By.ID, "browser-close").click()
    page.wait_view("grid-view")
    if page.text("#selection-count") != str(MAX_ITEMS):
        raise StepFailed(f"#selection-count after closing the browser: {page.describe()}")

    scenario.begin("Done finishes the session")
    page.driver.find_element(By.ID, "done-button").click()
    page.wait('#finished[data-state="complete"]', lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="complete"]'))
    if page.script("return document.getElementById('finished-next').hidden") is not True:
        raise StepFailed("a client program's session leads the person to the demo client page")
    check_axe(page, "the finished page", page.measured["axe"])
    page.driver.save_screenshot(str(artifacts / "finished.png"))

    errors = page.console_errors()
    if errors:
        print("e2e: note: the browser console logged errors (not a failure):")
        for entry in errors:
            print(f"e2e:   {entry.get('message')}")

    page.readme_screenshots["picker-grid.png"] = light_grid


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
