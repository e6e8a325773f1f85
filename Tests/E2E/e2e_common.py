"""What every part of the end-to-end test shares: its limits, its failure and its step names."""

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
MAX_ITEMS = 5
MOUSE_PICKS = 3
KEYBOARD_PICKS = 2
WAIT_SECONDS = 30
# The first grid renders every thumbnail of the first screen from the originals (cold caches).
GRID_WAIT_SECONDS = 90


class StepFailed(Exception):
    """A step of the scenario did not see what it expected."""


class Scenario:
    """Names the current step, so that a failure says where it happened."""

    def __init__(self):
        self.step = "start"

    def begin(self, step):
        self.step = step
        print(f"e2e: {step}", flush=True)
