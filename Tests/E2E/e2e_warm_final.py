"""A second browser on a warm server: fast thumbnails that were the final ones are not fetched again.

Once the first browser's first screen is sharp (each visible cell's final thumbnail rendered and
shown), a new browser (nothing cached, signed in with the same person's cookie) opens the same
grid. Its cells ask for quick thumbnails (delivery=fast), which the server answers with the final
renditions it has, saying so (`Server-Timing: final`); the page marks those cells sharp
(data-quality=high) without asking for their delivery=high renditions.
"""

from selenium.webdriver.common.by import By

from e2e_common import StepFailed
from e2e_page import Page, make_driver

# The thumbnails of the cells in view: whether every one shows its image marked sharp
# (data-quality=high), and the asset ids of those cells.
VISIBLE_SHARP = """
    const grid = document.getElementById('grid'), view = grid.getBoundingClientRect();
    const cells = [...grid.querySelectorAll('.cell[data-asset-id]')].filter(c => {
        const b = c.getBoundingClientRect(); return b.bottom > view.top && b.top < view.bottom; });
    const sharp = cells.every(c => { const i = c.querySelector('img.thumb');
        return i && i.complete && i.naturalWidth > 0 && i.dataset.quality === 'high'; });
    return {sharp: cells.length > 0 && sharp, ids: cells.map(c => c.dataset.assetId)};"""

# This page's image requests: [URL, whether its answer said Server-Timing: final].
IMAGE_REQUESTS = """
    return performance.getEntriesByType('resource').filter(e => e.name.includes('/image?'))
        .map(e => [e.name, e.serverTiming.some(m => m.name === 'final')]);"""


def open_grid(page, picker_url):
    page.driver.get(picker_url)
    page.wait_view("albums-view")
    page.wait("the All Photos album button",
              lambda d: d.find_elements(By.CSS_SELECTOR, '#album-list button.album[data-album-id="smart:all"]'))[0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()


def check_warm_fast_is_final(page, scenario):
    """`page` shows All Photos' first screen: once it is sharp, a second browser opens it too."""
    scenario.begin("a second browser on the warm server: the fast thumbnails that were final are not fetched again")
    page.wait("every cell in view sharp (its final thumbnail shown)", lambda _: page.script(VISIBLE_SHARP)["sharp"])
    picker_url = page.driver.current_url
    cookies = page.driver.get_cookies()
    driver = make_driver()
    try:
        second = Page(driver)
        driver.get(picker_url.split("/picker/")[0] + "/openapi.json")  # a page of the server's origin
        for cookie in cookies:
            driver.add_cookie({key: cookie[key] for key in ("name", "value", "path", "httpOnly", "sameSite") if key in cookie})
        open_grid(second, picker_url)
        state = second.wait("every cell in view marked sharp in the second browser",
                            lambda _: (lambda s: s if s["sharp"] else None)(second.script(VISIBLE_SHARP)))
        requests = second.script(IMAGE_REQUESTS)
        cells = set(state["ids"])
        in_cells = [(url, final) for url, final in requests if any(f"/assets/{i}/" in url for i in cells)]
        fast = [url for url, final in in_cells if "delivery=fast" in url]
        not_final = [url for url, final in in_cells if "delivery=fast" in url and not final]
        fetched_again = [url for url, _ in in_cells if "delivery=high" in url]
        print(f"e2e:   {len(cells)} cells in view, {len(fast)} fast answers, {len(fast) - len(not_final)} of them final, "
              f"{len(fetched_again)} fetched again")
        if len(fast) < len(cells) or not_final:
            raise StepFailed(f"each cell in view should have asked once for a fast thumbnail answered final: "
                             f"{len(fast)} fast for {len(cells)} cells; not final: {not_final[:3]}")
        if fetched_again:
            raise StepFailed(f"cells whose fast answer was final asked for it again: {fetched_again[:3]}")
    finally:
        driver.quit()
