"""Scrolling away cancels: the thumbnails of cells that leave the grid are cancelled in the browser.

A library of a few hundred photos on a server of its own. Once the first screen is shown, every
thumbnail request is held in the browser (DevTools Fetch, before it reaches the server): to the
page, a render that never ends. The grid scrolls down half a screen at a time, each step's cells
starting their thumbnails, then jumps far down. Every held request of a cell that left the DOM
must end cancelled (Network.loadingFailed, canceled), never reaching the server; then the held
requests still alive are let through, and every cell in view ends with its image.
"""

import urllib.parse

from selenium.webdriver.common.by import By

from e2e_common import StepFailed
from e2e_devtools import ImageRequests
from e2e_page import Page, make_driver, report_page
from e2e_library_server import PHOTOS, LibraryServer
from e2e_warm_final import check_warm_first_screen_batched

HALF_SCREEN_STEPS = 6  # each step under a screen, so its rows load at once (a jump defers them)

# Whether the grid has cells in view and the thumbnail of every one of them has started
# (arguments[0] == "started": its URL is set) or shows its image ("shown").
VISIBLE_CELLS_ALL = """
    const grid = document.getElementById('grid'), view = grid.getBoundingClientRect();
    const cells = [...grid.querySelectorAll('.cell')].filter(c => {
        const b = c.getBoundingClientRect(); return b.bottom > view.top && b.top < view.bottom; });
    const thumbs = cells.map(c => c.querySelector('img.thumb'));
    return cells.length > 0 && thumbs.every(i => i && (arguments[0] === 'started' ? !!i.getAttribute('src')
                                                       : i.complete && i.naturalWidth > 0));"""
SHOWS_IMAGE = "shown"
STARTED = "started"


def run_scroll_cancel(binary, artifacts, scenario):
    """The scenario on its own server and browser; both stopped whatever happens."""
    scenario.begin(f"a second server on a library of {PHOTOS} photos (more than a screen)")
    server = LibraryServer(binary)
    driver = None
    try:
        driver = make_driver()
        page = Page(driver)
        network = ImageRequests(driver)
        try:
            scroll_and_check(page, network, server, artifacts, scenario)
        except Exception:
            report_page(page, artifacts, scenario)
            raise
        finally:
            network.close()
    finally:
        if driver:
            driver.quit()
        server.stop(artifacts)


def scroll_and_check(page, network, server, artifacts, scenario):
    scenario.begin("the large library's All Photos opens with its first screen loaded")
    page.driver.get(server.sign_in)
    page.wait_view("albums-view")
    page.wait("the All Photos album button",
              lambda d: d.find_elements(By.CSS_SELECTOR, '#album-list button.album[data-album-id="smart:all"]'))[0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    page.wait("the first screen's thumbnails to be loaded", lambda _: page.images_loaded("#grid"))
    total = page.script("return document.getElementById('grid').dataset.total")
    if total != str(PHOTOS):
        raise StepFailed(f"the grid shows {total} items, expected {PHOTOS}")
    check_warm_first_screen_batched(page, scenario)

    scenario.begin(f"with every thumbnail held, the grid scrolls down {HALF_SCREEN_STEPS} half screens, then jumps far down")
    network.start_holding()
    for step in range(HALF_SCREEN_STEPS):
        page.script("const g = document.getElementById('grid'); g.scrollTop += Math.floor(g.clientHeight / 2);")
        wait_visible_started(page, f"step {step + 1}")
    page.script("const g = document.getElementById('grid'); g.scrollTop = Math.floor(g.scrollHeight * 0.85);")
    wait_visible_started(page, "the jump")

    scenario.begin("the held thumbnail requests of the cells that left the grid are cancelled in the browser")
    shown = set(page.script("return [...document.querySelectorAll('#grid .cell[data-asset-id]')].map(c => c.dataset.assetId);"))
    _, _, _, sent = network.snapshot()
    left = [i for i, url in sent.items() if asset_of(url) not in shown]
    ended = network.wait_ended(left, "the image requests of the cells that left the grid to end")
    held = network.snapshot()[0]
    held_left = [r for r in held.values() if r["network_id"] in ended]
    not_cancelled = [r["url"] for r in held_left if ended[r["network_id"]] != "cancelled"]
    failed = {sent[i]: how for i, how in ended.items() if how not in ("cancelled", "finished")}
    if not held_left:
        raise StepFailed(f"no held thumbnail request belonged to a cell that left the grid ({len(held)} held): the scroll showed nothing")
    if not_cancelled or failed:
        raise StepFailed(f"requests of cells that left the grid were not cancelled: {not_cancelled[:5]}; failed otherwise: {failed}")
    upgrades = sum(1 for r in held_left if r["upgrade"])
    print(f"e2e:   {len(held_left)} held requests of cells that left were cancelled ({upgrades} sharp upgrades)")

    scenario.begin("let through, the held requests still alive load: every cell in view shows its image")
    released = network.release()
    page.wait("every cell in view to show its image", lambda _: page.script(VISIBLE_CELLS_ALL, SHOWS_IMAGE))
    page.driver.save_screenshot(str(artifacts / "grid-scrolled.png"))
    held, ended, answered, sent = network.snapshot()
    cancelled = sum(1 for how in ended.values() if how == "cancelled")
    print(f"e2e:   {len(sent)} image requests made, {len(answered)} answered by the server, {cancelled} cancelled "
          f"(held ones, and some on their way), {len(released)} held ones let through")
    if len(answered) >= len(sent):
        raise StepFailed(f"the server answered {len(answered)} of {len(sent)} image requests: nothing was spared")


def wait_visible_started(page, what):
    """Waits until every cell in view has its thumbnail's URL set (its request started)."""
    page.wait(f"every cell in view to start its thumbnail after {what}", lambda _: page.script(VISIBLE_CELLS_ALL, STARTED))


def asset_of(url):
    """The asset id in an image URL: …/assets/<id>/image?…"""
    parts = urllib.parse.urlparse(url).path.split("/")
    return urllib.parse.unquote(parts[parts.index("assets") + 1])
