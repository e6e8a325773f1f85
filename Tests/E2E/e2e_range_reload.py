"""The third session: a keyboard range grows and shrinks; a reload takes every /ui/ file from the cache."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from e2e_common import StepFailed
from e2e_page import cancel_with_picks, pick_by_mouse, shift_press, wait_picks


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
    cancel_with_picks(page)
    page.wait('#finished[data-state="cancelled"]',
              lambda d: d.find_elements(By.CSS_SELECTOR, '#finished[data-state="cancelled"]'))
