"""The person signs in: a browser without the cookie sees the sign-in page; the printed link works once."""

import urllib.parse

from selenium.webdriver.common.by import By

from e2e_axe import check_axe
from e2e_client import plain_status
from e2e_common import StepFailed


def sign_in(page, sign_in_url, artifacts, scenario):
    """A browser that has not signed in sees the sign-in page; the printed link signs it in once.
    Answers the path of the picker the link goes on to (the server's own session)."""
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
    check_axe(page, "the sign-in page", page.measured["axe"])

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
    return trial
