"""The floor of a grid's first screen: the same thumbnails as static files behind nginx, in the
same boxes, fetched and decoded by the same headless Chromium.

A static page (no picker code) lays out one absolutely placed cell per box the picker's grid had
on screen, each with the thumbnail the picker ends up showing there (its final `delivery=high`
rendition, the same bytes, saved as a file). A script call stands for the album click: it makes
the cells, waits for every image to load and decode, and marks "grid-first-screen" as the picker
does, so that both sides are read the same way (grid_first_screen.open_grid's clock).
"""

import json

from selenium.webdriver.support.ui import WebDriverWait

import grid_first_screen as grid

PAGE = """<!doctype html>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>floor</title>
<style>
  html, body {{ margin: 0; height: 100%; overflow: hidden; }}
  .cell {{ position: absolute; overflow: hidden; background: #ddd; contain: strict; }}
  .thumb {{ width: 100%; height: 100%; display: block; object-fit: cover; }}
</style>
<script>
const CELLS = {cells};
function openGrid() {{
  performance.clearMarks("grid-first-screen");
  const clicked = performance.now();
  const images = CELLS.map(({{src, left, top, width, height}}) => {{
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.style.cssText = `left:${{left}}px;top:${{top}}px;width:${{width}}px;height:${{height}}px`;
    const img = document.createElement("img");
    img.className = "thumb";
    img.decoding = "async";
    img.src = src;
    cell.append(img);
    document.body.append(cell);
    return img;
  }});
  Promise.all(images.map((img) => img.decode().catch(() => undefined))).then(() => {{
    performance.mark("grid-first-screen");
    document.documentElement.dataset.gridReady = "true";
  }});
  return clicked;
}}
</script>
"""


def write_page(root, name, boxes, thumbnails):
    """Writes root/name/index.html and root/name/N.jpg (thumbnails[N], the bytes for boxes[N]);
    answers the page's path on the server."""
    folder = root / name
    folder.mkdir(parents=True)
    cells = []
    for number, (box, data) in enumerate(zip(boxes, thumbnails)):
        (folder / f"{number}.jpg").write_bytes(data)
        cells.append({"src": f"{number}.jpg", "left": box["left"], "top": box["top"],
                      "width": box["width"], "height": box["height"]})
    (folder / "index.html").write_text(PAGE.format(cells=json.dumps(cells)))
    return f"/{name}/index.html"


def first_screen(page_url, viewport):
    """The static page opened once in a new browser: open_grid's keys (no image-request counts)."""
    driver = grid.make_driver(viewport)
    try:
        driver.get(page_url)
        clicked = driver.execute_script("return openGrid()")
        WebDriverWait(driver, grid.WAIT_SECONDS, poll_frequency=0.02).until(
            lambda d: d.execute_script("return document.documentElement.dataset.gridReady") == "true")
        mark = driver.execute_script(grid.READ_MARK)
        cells = driver.execute_script("return document.querySelectorAll('.cell').length")
        return {"fromNavigationMs": round(mark, 1), "fromClickMs": round(mark - clicked, 1), "cells": cells}
    finally:
        driver.quit()
