"""The page's network seen and held through the DevTools protocol, on a connection of its own.

chromedriver's execute_cdp_cmd sends commands but hands back no events; this opens a second
DevTools connection to the page (websocket-client comes with selenium), reads its Network events
and pauses the thumbnail requests (Fetch domain, request stage: before they leave the browser)
while `hold` is on, so that a test decides when the server may see them.
"""

import json
import threading
import urllib.request

import websocket

from e2e_common import WAIT_SECONDS, StepFailed

IMAGE_PATTERN = "*/assets/*/image?*"


class ImageRequests:
    """The page's image requests: paused ones, and how each ended (finished, failed, cancelled)."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=WAIT_SECONDS) as response:
            targets = [t for t in json.load(response) if t.get("type") == "page"]
        if not targets:
            raise StepFailed("the browser lists no page target for the DevTools protocol")
        self.socket = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], suppress_origin=True,
                                                  timeout=WAIT_SECONDS)
        self.lock = threading.Condition()
        self.next_id = 0
        self.replies = {}
        self.hold = False
        self.held = {}  # Fetch requestId → {"url", "network_id", "upgrade"} of the requests paused while holding
        self.sent = {}  # Network requestId → url of every image request the page made
        self.ended = {}  # Network requestId → "finished", "cancelled" or the failure's errorText
        self.answered = set()  # Network requestIds of image requests the server answered
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.command("Network.enable")
        self.command("Fetch.enable", {"patterns": [{"urlPattern": IMAGE_PATTERN, "requestStage": "Request"}]})

    def close(self):
        try:
            self.socket.close()
        except websocket.WebSocketException:
            pass

    def send(self, method, params=None):
        with self.lock:
            self.next_id += 1
            identifier = self.next_id
        self.socket.send(json.dumps({"id": identifier, "method": method, "params": params or {}}))
        return identifier

    def command(self, method, params=None):
        """Sends a command and waits for its reply (a hang guard, far above the milliseconds it takes)."""
        identifier = self.send(method, params)
        with self.lock:
            if not self.lock.wait_for(lambda: identifier in self.replies, WAIT_SECONDS):
                raise StepFailed(f"the DevTools protocol did not answer {method} within {WAIT_SECONDS} s")
            return self.replies.pop(identifier)

    def read(self):
        while True:
            try:
                message = json.loads(self.socket.recv())
            except (websocket.WebSocketException, OSError, ValueError):
                return
            with self.lock:
                if "id" in message:
                    self.replies[message["id"]] = message
                else:
                    try:
                        self.event(message.get("method"), message.get("params", {}))
                    except (websocket.WebSocketException, OSError):
                        return  # closed meanwhile: the request it would let go ends with the page
                self.lock.notify_all()

    def event(self, method, params):
        """One DevTools event, under the lock."""
        if method == "Fetch.requestPaused":
            if self.hold:
                request = params["request"]
                upgrade = any(k.lower() == "x-image-upgrade" for k in request.get("headers", {}))
                self.held[params["requestId"]] = {"url": request["url"], "network_id": params.get("networkId"),
                                                  "upgrade": upgrade}
            else:
                self.send("Fetch.continueRequest", {"requestId": params["requestId"]})
        elif method == "Network.requestWillBeSent" and "/image?" in params["request"]["url"]:
            self.sent[params["requestId"]] = params["request"]["url"]
        elif method == "Network.responseReceived" and params["requestId"] in self.sent:
            self.answered.add(params["requestId"])
        elif method == "Network.loadingFinished" and params["requestId"] in self.sent:
            self.ended[params["requestId"]] = "finished"
        elif method == "Network.loadingFailed" and params["requestId"] in self.sent:
            self.ended[params["requestId"]] = "cancelled" if params.get("canceled") else params.get("errorText", "failed")

    def start_holding(self):
        with self.lock:
            self.hold = True

    def release(self):
        """Stops holding and lets every held request that is still alive go on to the server."""
        with self.lock:
            self.hold = False
            alive = [fetch_id for fetch_id, request in self.held.items() if request["network_id"] not in self.ended]
        for fetch_id in alive:
            self.command("Fetch.continueRequest", {"requestId": fetch_id})  # an error reply: cancelled meanwhile
        return alive

    def snapshot(self):
        """(held, ended, answered, sent), copied under the lock."""
        with self.lock:
            return dict(self.held), dict(self.ended), set(self.answered), dict(self.sent)

    def wait_ended(self, network_ids, what):
        """Waits until every one of `network_ids` ended (hang guard); answers how each ended."""
        with self.lock:
            if not self.lock.wait_for(lambda: all(i in self.ended for i in network_ids), WAIT_SECONDS):
                held = {r["network_id"]: r for r in self.held.values()}
                pending = [("held " + ("upgrade " if held[i]["upgrade"] else "") if i in held else "") + self.sent.get(i)
                           for i in network_ids if i not in self.ended]
                raise StepFailed(f"waited {WAIT_SECONDS} s for {what}; still pending: {pending[:10]}")
            return {i: self.ended[i] for i in network_ids}
