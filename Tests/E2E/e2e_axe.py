"""Accessibility and touch-size checks of whatever page the browser shows.

axe-core (Deque's rules engine, the copy bundled by PyPI's axe-selenium-python, which
scripts/install-e2e-dependencies.sh installs; or the file $AXE_CORE_JS names) runs in the page and
must find no violation at all, of any impact. `controls` measures every control a person can
press or choose: each must be at least 44 x 44 CSS pixels (WCAG 2.5.5), on a phone and on a desktop.
"""

import json
import os
from pathlib import Path

from e2e_common import StepFailed

MIN_CONTROL_PX = 44


def axe_source():
    path = os.environ.get("AXE_CORE_JS")
    if not path:
        try:
            import axe_selenium_python
        except ImportError:
            raise StepFailed("axe-core is missing: run scripts/install-e2e-dependencies.sh (PyPI's axe-selenium-python)") from None
        path = Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
    return Path(path).read_text()


_SOURCE = None


def axe_violations(page):
    """axe-core's violations on the page as it is now: [{id, impact, help, targets}]."""
    global _SOURCE
    if _SOURCE is None:
        _SOURCE = axe_source()
    if not page.script("return typeof window.axe === 'object'"):
        page.script(_SOURCE)
    # axe scrolls what it looks at into view; the page is put back as it was, for the steps after.
    scrolled = page.script(SCROLLED)
    try:
        return run_axe(page)
    finally:
        page.script(RESTORE, scrolled)


SCROLLED = """return [...document.querySelectorAll('*')].filter(e => e.scrollTop || e.scrollLeft)
    .map(e => [e, e.scrollTop, e.scrollLeft]).concat([[null, scrollY, scrollX]]);"""
RESTORE = """for (const [e, top, left] of arguments[0]) { if (e) { e.scrollTop = top; e.scrollLeft = left; } else scrollTo(left, top); }
    for (const e of document.querySelectorAll('#grid, .toolbar, #album-list')) if (!arguments[0].some(([s]) => s === e)) {
        e.scrollTop = 0; e.scrollLeft = 0; }"""


def run_axe(page):
    return page.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then(results => done(results.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            targets: v.nodes.slice(0, 5).map(n => n.target.join(' '))}))), error => done([{id: 'axe-error', impact: 'critical',
            help: String(error), targets: []}]));""")


def check_axe(page, name, counts):
    """Fails unless axe finds 0 violations on the page (`name` says which); records the count."""
    violations = axe_violations(page)
    counts[name] = len(violations)
    print(f"e2e:   axe on {name}: {len(violations)} violations", flush=True)
    if violations:
        raise StepFailed(f"axe finds {len(violations)} violations on {name}: {json.dumps(violations, ensure_ascii=False)[:3000]}")


# Every visible thing a person presses or chooses: buttons, selects, links, fields, the grid's
# cells, the upload (its label: the file input itself is hidden under it).
CONTROLS = """
    const visible = e => { const s = getComputedStyle(e); const b = e.getBoundingClientRect();
        return b.width > 0 && b.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !e.closest('dialog:not([open])'); };
    const name = e => e.id ? '#' + e.id : (e.className ? e.tagName.toLowerCase() + '.' + String(e.className).split(' ')[0]
                                                       : e.tagName.toLowerCase()) + (e.textContent.trim() ? ' ' + JSON.stringify(e.textContent.trim().slice(0, 20)) : '');
    return [...document.querySelectorAll('button, select, a[href], input:not([type=file]), label.upload, [role=gridcell]')]
        .filter(visible).map(e => { const b = e.getBoundingClientRect();
            return {name: name(e), width: Math.round(b.width * 10) / 10, height: Math.round(b.height * 10) / 10}; });"""


def controls(page):
    """Every visible control with its size in CSS pixels."""
    return page.script(CONTROLS)


def check_controls(page, name, smallest):
    """Fails unless every visible control is at least 44 x 44; records the smallest seen in `smallest`."""
    found = controls(page)
    if not found:
        raise StepFailed(f"no visible control on {name}")
    small = [c for c in found if c["width"] < MIN_CONTROL_PX or c["height"] < MIN_CONTROL_PX]
    least = min(found, key=lambda c: min(c["width"], c["height"]))
    print(f"e2e:   {len(found)} controls on {name}; the smallest: {least['name']} {least['width']}x{least['height']}", flush=True)
    if smallest.get("size") is None or min(least["width"], least["height"]) < smallest["size"]:
        smallest.update(size=min(least["width"], least["height"]), what=f"{least['name']} on {name}")
    if small:
        raise StepFailed(f"controls under {MIN_CONTROL_PX}x{MIN_CONTROL_PX} on {name}: {small[:10]}")
