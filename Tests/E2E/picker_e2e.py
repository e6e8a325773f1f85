#!/usr/bin/env python3
"""The picker end to end, in a real headless Chromium: a client program and a person.

Two principals. The client, with its key and a session's pickerUri, reaches nothing of the library
(401), and a browser that has not signed in sees the sign-in page, not the library. The person
signs in by opening the one-time link `serve` printed (it goes on to the picker of the session made
at start), which a second use refuses.

A client creates a picker session (at most 5 items, pick order) with its client key; the person
opens the session's pickerUri, goes from the album list to All Photos, picks 3 photos with the
mouse and 2 with the keyboard, is told the maximum when trying a 6th, opens the browser on a
pick, comes back and presses Done. The client then polls the session, lists exactly those 5
items in pick order, downloads one at 300x200 (fill, JPEG) and checks the JPEG's pixel size, and
the pickerUri answers 410 Gone. Screenshots of the three pages, light and dark, are saved. A second
session, with the page switched to Simplified Chinese, is cancelled and lists no items. A third
picks a range with Shift+Right x3 and shrinks it with Shift+Left x2 (the cells that fall out are
unpicked, the others keep their pick numbers), then reloads the page: the page links its files
under /ui/<version>/ and the reload fetches none of them from the server (all from the cache).
Last, a second server of the same binary on a library of a few hundred photos: once its first
screen is sharp, a second browser opening it gets the first screen's final thumbnails in one
answer and asks for none of them on its own (e2e_warm_final); then, with every
thumbnail request held in the browser, the grid scrolls far down; the requests of the cells that
left are cancelled before reaching the server, and once let through, every cell in view shows its image.
Then a server on each backend (folder and indexed): in Simplified Chinese All Photos is titled
所有照片 on both, and the page asks within the limits GET api/session gives it (e2e_album_kinds).
The server's own session (the one its first sign-in link opens) is picked and finished: the page
goes on to the demo client page, which shows what the program received, its thumbnails through the
baseUrls; then that page, as an app would, creates a session, opens its picker, and after two picks
and Done lists them, downloads them all and deletes the session (e2e_demo_client). A library
whose originals are in a bucket (moto; once `serve --library s3://…` exists, skipped until then):
cloud badges, an original's bytes of total while it comes, the transfer stopped when its large view
is left, Done at once (e2e_cloud). Last, a phone
(390 x 844, touch) on a library with folders: four columns over at least 72 % of the height, the
grid's tools never wider than the screen, controls of 44 px at least, folders of albums, a swipe,
the upload's message, the scroll position kept per album, Cancel asking first, an empty album, and
the demo client page (e2e_phone). On every page (sign-in, album list, grid, large image, finished,
demo client; desktop 1280 x 900 and phone) axe-core finds no violation and every control is at
least 44 x 44 (e2e_axe).

Each part lives in a module beside this file (e2e_client, e2e_page, e2e_sign_in, e2e_picking,
e2e_cancel, e2e_range_reload, e2e_scroll_cancel with e2e_library_server, e2e_warm_final, e2e_devtools,
e2e_album_kinds, e2e_demo_client, e2e_cloud, e2e_phone and e2e_axe; e2e_common
for what they share). Run by scripts/e2e.sh, which starts
the server:
    python3 Tests/E2E/picker_e2e.py --base http://127.0.0.1:PORT/ --key CLIENT_KEY --sign-in SIGN_IN_URL \
        --binary PATH-TO-assets-picker --artifacts test-artifacts/e2e [--readme-screenshot]
Needs selenium (PyPI) and Debian's chromium and chromedriver on PATH.
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

from e2e_page import Page, make_driver, report_page  # first: says so when selenium is missing
from selenium.common.exceptions import WebDriverException

from e2e_album_kinds import run_album_kinds
from e2e_cancel import run_cancel
from e2e_client import Client, client_reaches_nothing
from e2e_cloud import run_cloud_bucket
from e2e_common import MAX_ITEMS, REPOSITORY, Scenario, StepFailed
from e2e_demo_client import run_demo_client
from e2e_phone import run_phone
from e2e_picking import check_results, run_browser
from e2e_range_reload import run_range_and_reload
from e2e_scroll_cancel import run_scroll_cancel
from e2e_sign_in import sign_in


def run(arguments, scenario):
    artifacts = Path(arguments.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    client = Client(arguments.base, arguments.key)

    scenario.begin("the client creates a session (maxItemCount 5, order pick)")
    session = client.create_session(max_items=MAX_ITEMS, order="pick")
    picker_uri = session["pickerUri"]
    if session["mediaItemsSet"] or session["pickingConfig"]["maxItemCount"] != str(MAX_ITEMS) or session["order"] != "pick":
        raise StepFailed(f"unexpected new session: {session}")

    scenario.begin("the client, with its key and the pickerUri, reaches nothing of the library")
    client_reaches_nothing(client, picker_uri)

    driver = make_driver()
    page = Page(driver)
    # What the run measured: axe's violations per page, the smallest control, the grids' columns and height.
    page.measured = measured = {"axe": {}, "smallest": {}}
    page.readme_screenshots = {}
    try:
        own_path = sign_in(page, arguments.sign_in, artifacts, scenario)
        run_browser(page, picker_uri, artifacts, scenario, arguments)
        picked = page.picked
        check_results(page, client, session, picked, artifacts, scenario)
        run_cancel(page, client, artifacts, scenario)
        run_range_and_reload(page, client, artifacts, scenario)
        run_demo_client(page, client, arguments.base, own_path, artifacts, scenario)
        page.readme_screenshots["demo-client.png"] = artifacts / "demo-client-light.png"
    except Exception:
        report_page(page, artifacts, scenario)
        raise
    finally:
        driver.quit()
    run_phone(arguments.binary, artifacts, scenario, measured)
    page.readme_screenshots["picker-phone.png"] = artifacts / "phone-grid-light.png"
    run_scroll_cancel(arguments.binary, artifacts, scenario)
    run_album_kinds(arguments.binary, artifacts, scenario)
    run_cloud_bucket(arguments.binary, artifacts, scenario, measured)
    print(f"e2e: measured {json.dumps(measured, ensure_ascii=False)}", flush=True)
    (artifacts / "measured.json").write_text(json.dumps(measured, indent=2, ensure_ascii=False))
    if arguments.readme_screenshot:
        # The README's pictures, each from the step its caption describes.
        for name, source in page.readme_screenshots.items():
            target = REPOSITORY / "docs" / "screenshots" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            print(f"e2e: copied {source.name} to {target.relative_to(REPOSITORY)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the server's URL, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--key", required=True, help="the server's client key")
    parser.add_argument("--sign-in", required=True, help="the one-time sign-in link the server printed (signInUrl)")
    parser.add_argument("--binary", required=True, help="the assets-picker that serves the large library of the scroll test")
    parser.add_argument("--artifacts", default="test-artifacts/e2e", help="where screenshots go")
    parser.add_argument("--readme-screenshot", action="store_true",
                        help="also copy the README's screenshots to docs/screenshots/ (picker-grid, picker-phone, demo-client)")
    arguments = parser.parse_args()
    scenario = Scenario()
    try:
        run(arguments, scenario)
    except StepFailed as failure:
        print(f"e2e: FAILED at step '{scenario.step}': {failure}", file=sys.stderr)
        return 1
    except WebDriverException as error:
        print(f"e2e: FAILED at step '{scenario.step}': the browser reported: {error.msg}", file=sys.stderr)
        return 1
    print("e2e: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
