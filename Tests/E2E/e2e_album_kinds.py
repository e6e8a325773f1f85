"""Capabilities, not names: the page titles albums by what they are and asks within the server's numbers.

Two servers of their own, one on each backend (the folder library, whose All Photos is
`camera-roll`, and the indexed one, whose All Photos is `smart:all`): with Simplified Chinese
chosen, All Photos is titled 所有照片 on both, as the album list's `smartKind` says what it is.

On the first, the page's `GET api/session` answer is changed on its way into the page (a script
DevTools installs before the page's own): a thumbnail batch of at most 2 ids, thumbnails at
quality 79. The session the server sent must carry its limits; opening All Photos, the page's
thumbnail batches must ask for at most 2 ids and its thumbnails at quality 79: numbers only the
session gave it.
"""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from e2e_common import StepFailed
from e2e_library_server import LibraryServer
from e2e_page import Page, make_driver, report_page

PHOTOS = 12  # more than a batch of 2 ids, fewer than a screen
BATCH_IDS = 2
QUALITY = 79
ALL_PHOTOS_ZH = "所有照片"

# Before the page's modules run: the session's limits, as the server sent them, are kept in
# window.e2eLimits and replaced by BATCH_IDS and QUALITY; the bodies of thumbnail batches are kept.
CHANGE_LIMITS = """
    window.e2eBatches = [];
    const serverFetch = window.fetch;
    window.fetch = async function (input, init) {
        const url = typeof input === 'string' ? input : input.url;
        if (url.endsWith('/api/thumbnails') && init && init.body) window.e2eBatches.push(JSON.parse(init.body));
        const response = await serverFetch.call(this, input, init);
        if (!url.endsWith('/api/session') || !response.ok) return response;
        const session = await response.json();
        window.e2eLimits = session.limits;
        if (session.limits) {
            session.limits = {...session.limits, thumbnailQuality: %d, batch: {...session.limits.batch, ids: %d}};
        }
        return new Response(JSON.stringify(session), {status: response.status, headers: response.headers});
    };
""" % (QUALITY, BATCH_IDS)

# The thumbnail URLs of the grid's cells (a batch's data: URLs left out).
THUMBNAIL_URLS = """
    return [...document.querySelectorAll('#grid img.thumb')].map(i => i.getAttribute('src') || i.dataset.src || '')
        .filter(u => u && !u.startsWith('data:'));"""


def run_album_kinds(binary, artifacts, scenario):
    """Both backends' servers, one browser; all stopped whatever happens."""
    driver = make_driver()
    page = Page(driver)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CHANGE_LIMITS})
        for backend in ("folder", "indexed"):
            server = LibraryServer(binary, photos=PHOTOS, backend=backend, log_name=f"{backend}-server.log")
            try:
                check_all_photos_title(page, server, backend, artifacts, scenario)
                if backend == "folder":
                    check_served_limits(page, scenario)
            except Exception:
                report_page(page, artifacts, scenario)
                raise
            finally:
                server.stop(artifacts)
    finally:
        driver.quit()


def check_all_photos_title(page, server, backend, artifacts, scenario):
    scenario.begin(f"the {backend} backend: with Simplified Chinese chosen, All Photos is titled {ALL_PHOTOS_ZH}")
    page.driver.get(server.sign_in)  # signs in and opens the picker of the session made at start
    page.wait_view("albums-view")
    page.wait("album buttons in #album-list", lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))
    Select(page.driver.find_element(By.ID, "language-select")).select_by_value("zh-CN")
    first = page.wait("All Photos' title in Simplified Chinese",
                      lambda _: page.text("#album-list button.album .album-title") == ALL_PHOTOS_ZH
                      and page.script("return document.querySelector('#album-list button.album').dataset.albumId"))
    print(f"e2e:   All Photos is {first!r} on the {backend} backend", flush=True)
    page.driver.save_screenshot(str(artifacts / f"albums-zh-CN-{backend}.png"))
    Select(page.driver.find_element(By.ID, "language-select")).select_by_value("en")


def check_served_limits(page, scenario):
    scenario.begin(f"the page asks within the session's limits (changed on their way to {BATCH_IDS} ids a batch, quality {QUALITY})")
    served = page.script("return window.e2eLimits")
    if not served or not all(key in served for key in ("thumbnailQuality", "batch", "prefetch")):
        raise StepFailed(f"GET api/session carries no limits for the page: {served}")
    page.driver.find_element(By.CSS_SELECTOR, "#album-list button.album").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    batches = page.script("return window.e2eBatches")
    if not batches:
        raise StepFailed("opening All Photos asked for no thumbnail batch")
    over = [len(batch["ids"]) for batch in batches if len(batch["ids"]) > BATCH_IDS]
    if over:
        raise StepFailed(f"thumbnail batches of {over} ids, over the session's {BATCH_IDS}")
    urls = page.script(THUMBNAIL_URLS)
    if not urls or not all(f"quality={QUALITY}" in url for url in urls):
        raise StepFailed(f"the cells' thumbnails are not asked at the session's quality {QUALITY}: {urls[:3]}")
