"""The grid's first screen in headless Chromium: from the album click to every thumbnail shown.

The picker page marks `performance.mark("grid-first-screen")` once every cell of the grid's
first viewport has its thumbnail loaded and decoded, and sets `data-grid-ready="true"` on <html>
(the DOM contract's timing hook). `first_screen` opens a picker page in a new browser (nothing
cached) at a given viewport and device pixel ratio, clicks All Photos and reads that mark
relative to the click, with the requests made until then; floor_page.py reads a static page the
same way.
"""

import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT_SECONDS = 120

# Clicks the first album (All Photos) and answers the click's time on the page's clock, so that
# nothing between the click and the page's own mark is Selenium's round trip.
CLICK_FIRST_ALBUM = """
    const button = document.querySelector('#album-list button.album');
    if (!button) return null;
    performance.clearMarks('grid-first-screen');
    const clicked = performance.now();
    button.click();
    return clicked;
"""

READ_MARK = """
    const marks = performance.getEntriesByName('grid-first-screen');
    return marks.length ? marks[marks.length - 1].startTime : null;
"""


# The requests since the click, up to the mark: how many images (a batch of a first screen's
# thumbnails, POST api/thumbnails, counts as one), how many of them the browser's cache answered
# (no bytes over the network), and when (ms after the click) the first API answer ended, the
# first image request started and the last image answer ended: where the time went.
REQUESTS = """
    const [clicked, mark] = arguments;
    const since = performance.getEntriesByType('resource').filter(r => r.startTime >= clicked && r.startTime <= mark);
    const isImage = (r) => r.name.includes('/image?') || r.name.endsWith('/api/thumbnails');
    const images = since.filter(isImage);
    const api = since.filter(r => !isImage(r) && r.name.includes('/api/'));
    const after = (values) => values.length ? Math.round(Math.max(...values) - clicked) : null;
    return {imageRequests: images.length, imageRequestsFromBrowserCache: images.filter(r => r.transferSize === 0).length,
            apiDoneMs: after(api.map(r => r.responseEnd)),
            firstImageStartMs: images.length ? Math.round(Math.min(...images.map(r => r.startTime)) - clicked) : null,
            lastImageEndMs: after(images.map(r => r.responseEnd))};
"""

# The cells of the first screen: those inside the viewport.
VISIBLE_CELLS = """
    return [...document.querySelectorAll('#grid .cell')].filter(cell => {
        const box = cell.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
    }).length;
"""


# The cells of the first screen with their boxes (CSS pixels, relative to the viewport) and
# their asset ids: what the static floor page (floor_page.py) lays out in the same places.
VISIBLE_CELL_BOXES = """
    return [...document.querySelectorAll('#grid .cell[data-asset-id]')].map(cell => {
        const box = cell.getBoundingClientRect();
        return {assetId: cell.dataset.assetId, left: box.left, top: box.top, width: box.width, height: box.height,
                px: Number(cell.querySelector('img.thumb')?.dataset.px || 0)};
    }).filter(b => b.top + b.height > 0 && b.top < innerHeight && b.left + b.width > 0 && b.left < innerWidth);
"""

# The screens measured: (name, CSS width, CSS height, device pixel ratio).
DESKTOP = ("desktop 1280x900", 1280, 900, 1)
PHONE = ("phone 390x844@3x", 390, 844, 3)


def make_driver(viewport=DESKTOP):
    """A new headless Chromium (its own profile: nothing cached) whose viewport is exactly
    `viewport`'s CSS size at its device pixel ratio."""
    _, width, height, ratio = viewport
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--lang=en-US", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": ratio, "mobile": ratio > 1})
    return driver


def open_grid(driver, picker_uri):
    """Loads the picker page, opens All Photos and answers the mark's time from the navigation's
    start and from the click, the cells on screen and the requests made until the mark (REQUESTS)."""
    driver.get(picker_uri)
    wait = WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.02)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#album-list button.album"))
    clicked = driver.execute_script(CLICK_FIRST_ALBUM)
    if clicked is None:
        raise RuntimeError("the album list has no album button")
    wait.until(lambda d: d.execute_script("return document.documentElement.dataset.gridReady") == "true")
    mark = driver.execute_script(READ_MARK)
    if mark is None:
        raise RuntimeError("the grid is ready but no 'grid-first-screen' performance mark was made")
    cells = driver.execute_script(VISIBLE_CELLS)
    return {"fromNavigationMs": round(mark, 1), "fromClickMs": round(mark - clicked, 1), "cells": cells,
            **driver.execute_script(REQUESTS, clicked, mark)}


def sign_in(driver, picker_uri, cookie):
    """Gives the browser the person's signed-in cookie (`name=value`) for the picker's origin."""
    name, value = cookie.split("=", 1)
    driver.get(picker_uri.split("/picker/")[0] + "/openapi.json")  # a page of the server's origin
    driver.add_cookie({"name": name, "value": value, "path": "/", "httpOnly": True, "sameSite": "Strict"})


def first_screen(picker_uri, cookie, viewport, cells=False):
    """All Photos opened once in a new browser: open_grid's answer, and with `cells` the boxes
    of the cells on screen (VISIBLE_CELL_BOXES) under "cellBoxes"."""
    driver = make_driver(viewport)
    try:
        sign_in(driver, picker_uri, cookie)
        result = open_grid(driver, picker_uri)
        if cells:
            result["cellBoxes"] = driver.execute_script(VISIBLE_CELL_BOXES)
        return result
    finally:
        driver.quit()
