"""The grid's first screen in headless Chromium: from the album click to every thumbnail painted.

The picker page marks `performance.mark("grid-first-screen")` once every cell of the grid's
first viewport has its thumbnail loaded and decoded, and sets `data-grid-ready="true"` on <html>
(the DOM contract's timing hook). This module opens a picker page, clicks All Photos and reads
that mark: relative to the page's navigation start and to the click.
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


# The image requests since the click, up to the mark: how many, and how many the browser's cache
# answered (no bytes over the network).
IMAGE_REQUESTS = """
    const [clicked, mark] = arguments;
    const requests = performance.getEntriesByType('resource')
        .filter(r => r.name.includes('/image?') && r.startTime >= clicked && r.startTime <= mark);
    return [requests.length, requests.filter(r => r.transferSize === 0).length];
"""

# The cells of the first screen: those inside the viewport.
VISIBLE_CELLS = """
    return [...document.querySelectorAll('#grid .cell')].filter(cell => {
        const box = cell.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
    }).length;
"""


def make_driver(width=1280, height=860):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--lang=en-US", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    return webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))


def open_grid(driver, picker_uri):
    """Loads the picker page, opens All Photos and answers the mark's time from the navigation's
    start and from the click, the cells on screen and the image requests made until the mark."""
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
    requests, cached = driver.execute_script(IMAGE_REQUESTS, clicked, mark)
    return {"fromNavigationMs": round(mark, 1), "fromClickMs": round(mark - clicked, 1), "cells": cells,
            "imageRequests": requests, "imageRequestsFromBrowserCache": cached}


def measure(picker_uri, cookie, warm_runs=3):
    """The first grid opened in a new browser (cold), then `warm_runs` reloads of the same page.
    `cookie` (`name=value`) is the person's signed-in browser cookie, given to the browser first.

    Answers {"cold": {...}, "warm": [{...}, ...]}, each as open_grid answers.
    """
    driver = make_driver()
    try:
        name, value = cookie.split("=", 1)
        driver.get(picker_uri.split("/picker/")[0] + "/openapi.json")  # a page of the server's origin
        driver.add_cookie({"name": name, "value": value, "path": "/", "httpOnly": True, "sameSite": "Strict"})
        cold = open_grid(driver, picker_uri)
        warm = [open_grid(driver, picker_uri) for _ in range(warm_runs)]
        return {"cold": cold, "warm": warm}
    finally:
        driver.quit()
