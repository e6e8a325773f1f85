"""A second browser on a warm server: the first screen's final thumbnails come in one answer.

Once the first browser's first screen is sharp (each visible cell's final thumbnail rendered and
shown), a new browser (nothing cached, signed in with the same person's cookie) opens the same
grid. It asks for the first screen's thumbnails together (POST api/thumbnails); the server holds
every one final, so each cell shows its thumbnail from that one answer (data-quality=held) and
no cell in view asks for its image on its own, quick or final.
"""

from selenium.webdriver.common.by import By

from e2e_common import StepFailed
from e2e_page import Page, make_driver

# The thumbnails of the cells in view: whether every one shows its image marked sharp (its
# data-quality one of `qualities`), and the asset ids of those cells.
VISIBLE_SHARP = """
    const qualities = arguments[0];
    const grid = document.getElementById('grid'), view = grid.getBoundingClientRect();
    const cells = [...grid.querySelectorAll('.cell[data-asset-id]')].filter(c => {
        const b = c.getBoundingClientRect(); return b.bottom > view.top && b.top < view.bottom; });
    const sharp = cells.every(c => { const i = c.querySelector('img.thumb');
        return i && i.complete && i.naturalWidth > 0 && qualities.includes(i.dataset.quality); });
    return {sharp: cells.length > 0 && sharp, ids: cells.map(c => c.dataset.assetId)};"""

# This page's image requests (URLs), and how many thumbnail batches it asked for.
IMAGE_REQUESTS = """
    const entries = performance.getEntriesByType('resource');
    return {images: entries.filter(e => e.name.includes('/image?')).map(e => e.name),
            batches: entries.filter(e => e.name.endsWith('/api/thumbnails')).length};"""


def open_grid(page, picker_url):
    page.driver.get(picker_url)
    page.wait_view("albums-view")
    page.wait("the All Photos album button",
              lambda d: d.find_elements(By.CSS_SELECTOR, '#album-list button.album[data-album-id="smart:all"]'))[0].click()
    page.wait_view("grid-view")
    page.wait_grid_ready()


def check_warm_first_screen_batched(page, scenario):
    """`page` shows All Photos' first screen: once it is sharp, a second browser opens it too."""
    scenario.begin("a second browser on the warm server: the first screen's thumbnails come in one answer")
    page.wait("every cell in view sharp (its final thumbnail shown)", lambda _: page.script(VISIBLE_SHARP, ["high", "held"])["sharp"])
    picker_url = page.driver.current_url
    cookies = page.driver.get_cookies()
    driver = make_driver()
    try:
        second = Page(driver)
        driver.get(picker_url.split("/picker/")[0] + "/openapi.json")  # a page of the server's origin
        for cookie in cookies:
            driver.add_cookie({key: cookie[key] for key in ("name", "value", "path", "httpOnly", "sameSite") if key in cookie})
        open_grid(second, picker_url)
        state = second.wait("every cell in view showing its thumbnail from the batch in the second browser",
                            lambda _: (lambda s: s if s["sharp"] else None)(second.script(VISIBLE_SHARP, ["held"])))
        requests = second.script(IMAGE_REQUESTS)
        cells = set(state["ids"])
        one_by_one = [url for url in requests["images"] if any(f"/assets/{i}/" in url for i in cells)]
        print(f"e2e:   {len(cells)} cells in view, {requests['batches']} batch, {len(one_by_one)} of their images asked one by one")
        if requests["batches"] != 1:
            raise StepFailed(f"the first screen should ask for one thumbnail batch, asked {requests['batches']}")
        if one_by_one:
            raise StepFailed(f"cells shown from the batch asked for their image on their own: {one_by_one[:3]}")
    finally:
        driver.quit()
