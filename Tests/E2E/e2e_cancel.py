"""The second session: the page in Simplified Chinese, one pick, then Cancel."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from e2e_client import wait_finished
from e2e_common import StepFailed
from e2e_page import cancel_with_picks, person_status, pick_by_mouse


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

    scenario.begin("one pick, then Cancel (asked and confirmed) ends the session with no items")
    page.driver.find_element(By.CSS_SELECTOR, "#album-list button.album").click()
    page.wait_view("grid-view")
    page.wait_grid_ready()
    pick_by_mouse(page, 0, 1)
    cancel_with_picks(page)
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
