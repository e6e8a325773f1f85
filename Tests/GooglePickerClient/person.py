#!/usr/bin/env python3
"""The person's side for a client in another language (Tests/GooglePickerClient/go): in headless
Chromium, signs in with the one-time link, opens `pickerUri + "/autoclose"`, picks two JPEG photos
and a video and presses Done (the window closes itself), as google_picker_client.py's person does.

    python3 Tests/GooglePickerClient/person.py --sign-in SIGN_IN_URL --picker-uri PICKER_URI
"""

import argparse
import sys

from google_picker_client import Failed, make_driver, person_picks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sign-in", required=True)
    parser.add_argument("--picker-uri", required=True)
    arguments = parser.parse_args()
    driver = make_driver()
    try:
        picked = person_picks(driver, arguments.sign_in, arguments.picker_uri, [[".jpg", 2], [".mp4", 1]])
    except Failed as error:
        sys.exit(f"person: FAILED: {error}")
    finally:
        driver.quit()
    print(f"person: picked {', '.join(item['filename'] for item in picked)} and pressed Done")


if __name__ == "__main__":
    main()
