"""The person's side: the web picker in headless Chromium, through the hooks of the DOM contract."""

import json
import shutil
import sys

try:
    from selenium import webdriver
except ImportError:
    sys.exit("e2e: selenium is missing: run scripts/install-e2e-dependencies.sh")
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from e2e_client import plain_status
from e2e_common import GRID_WAIT_SECONDS, WAIT_SECONDS, StepFailed


DESKTOP = (1280, 900)
PHONE = (390, 844)  # CSS pixels of an iPhone 12 to 15's screen


def make_driver(phone=False):
    """A headless Chromium whose page is 1280 x 900 CSS pixels, or with `phone` 390 x 844, a
    mobile viewport with touch (touch events, no hover)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % DESKTOP, "--lang=en-US", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        raise StepFailed("chromium and chromedriver must be on PATH (scripts/install-e2e-dependencies.sh)")
    options.binary_location = chromium
    driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
    width, height = PHONE if phone else DESKTOP
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})
    if phone:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return driver


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


def person_status(page, url):
    """The HTTP status of a GET with the cookies of the person's browser (HttpOnly ones too)."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.driver.get_cookies())
    return plain_status(url, {"Cookie": cookies})


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


def cancel_with_picks(page):
    """Presses Cancel with picks: the page asks first (#cancel-dialog); the person confirms."""
    page.driver.find_element(By.ID, "cancel-button").click()
    page.wait("the Cancel question (#cancel-dialog open)", lambda d: d.find_elements(By.CSS_SELECTOR, "#cancel-dialog[open]"))
    if page.script("return document.getElementById('finished').hidden") is not True:
        raise StepFailed(f"Cancel with picks ended the session before the person confirmed: {page.describe()}")
    page.driver.find_element(By.ID, "cancel-confirm").click()


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
