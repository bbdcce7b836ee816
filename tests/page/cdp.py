# A small Chrome DevTools Protocol client for the page tests: it starts a headless chromium that
# talks over --remote-debugging-pipe (commands in on fd 3, replies and events out on fd 4, each
# message a JSON text ended by a NUL byte), so it needs no network port and no package beyond
# the Python standard library. `Browser` owns the process and the pipe; `Page` is one tab.
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

DEFAULT_TIMEOUT = 30.0

CHROMIUM_FLAGS = [
    "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
    "--no-first-run", "--no-default-browser-check", "--disable-extensions",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--metrics-recording-only", "--disable-default-apps", "--mute-audio",
    # A container's /dev/shm is often 64 MB: shared memory then goes to a file under /tmp.
    "--disable-dev-shm-usage",
]

# Run in a throwaway Python between fork and chromium: it moves the two pipe ends it inherited
# (whatever their numbers) to fds 3 and 4, where chromium looks for them, then becomes chromium.
# This keeps preexec_fn (unsafe once threads run) out of the parent.
_PLACE_PIPE_FDS = """\
import fcntl, os, sys
r, w = int(sys.argv[1]), int(sys.argv[2])
hr, hw = fcntl.fcntl(r, fcntl.F_DUPFD, 10), fcntl.fcntl(w, fcntl.F_DUPFD, 10)
for fd in (r, w):
    if fd not in (3, 4):
        os.close(fd)
os.dup2(hr, 3)
os.dup2(hw, 4)
os.close(hr)
os.close(hw)
os.execv(sys.argv[3], sys.argv[3:])
"""

# Keys press_key knows: key -> (code, windowsVirtualKeyCode, text typed or "").
KEYS = {
    "ArrowLeft": ("ArrowLeft", 37, ""), "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowRight": ("ArrowRight", 39, ""), "ArrowDown": ("ArrowDown", 40, ""),
    "Enter": ("Enter", 13, "\r"), "Space": ("Space", 32, " "), " ": ("Space", 32, " "),
    "Tab": ("Tab", 9, ""), "Escape": ("Escape", 27, ""), "Backspace": ("Backspace", 8, ""),
    "Delete": ("Delete", 46, ""), "Home": ("Home", 36, ""), "End": ("End", 35, ""),
    "PageUp": ("PageUp", 33, ""), "PageDown": ("PageDown", 34, ""),
}


class CDPError(RuntimeError):
    """A protocol error, a JavaScript exception, or a browser that went away."""


class CDPTimeout(CDPError):
    """Nothing arrived in time."""


def find_chromium():
    """The chromium executable: Debian's /usr/bin/chromium, else one on PATH; None if none."""
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """A headless chromium driven through the DevTools pipe. Use as a context manager."""

    def __init__(self, executable=None, timeout=DEFAULT_TIMEOUT, extra_args=()):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise CDPError("no chromium found (looked for /usr/bin/chromium and on PATH)")
        self.timeout = timeout
        self.events = []  # every event: {"method", "params", "sessionId"}
        self._responses = {}
        self._next_id = 0
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._gone = None  # why the pipe closed, once it has
        self._process = None
        self._dir = tempfile.mkdtemp(prefix="awb-chromium-")
        try:
            self._start(list(extra_args))
        except BaseException:
            self.close()
            raise

    def _start(self, extra_args):
        profile = os.path.join(self._dir, "profile")
        os.mkdir(profile)
        self.log_path = os.path.join(self._dir, "chromium.log")
        env = dict(os.environ)
        home = env.get("HOME", "")
        if not (home and os.path.isdir(home) and os.access(home, os.W_OK)):
            env["HOME"] = self._dir  # chromium writes under HOME; `nobody` has none
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        argv = [sys.executable or "/usr/bin/python3", "-c", _PLACE_PIPE_FDS,
                str(to_browser_r), str(from_browser_w), self.executable, *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}", *extra_args, "about:blank"]
        try:
            with open(self.log_path, "wb") as log:
                self._process = subprocess.Popen(
                    argv, pass_fds=(to_browser_r, from_browser_w), stdin=subprocess.DEVNULL,
                    stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        finally:
            os.close(to_browser_r)
            os.close(from_browser_w)
        self._out = to_browser_w
        self._in = from_browser_r
        self._reader = threading.Thread(target=self._read_loop, name="cdp-reader", daemon=True)
        self._reader.start()
        self.version = self.send("Browser.getVersion")

    def log_tail(self, lines=20):
        """The last lines chromium wrote to stdout/stderr (it is chatty about D-Bus)."""
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def _read_loop(self):
        buffer = b""
        reason = "the browser closed its pipe"
        try:
            while True:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    break
                buffer += chunk
                *messages, buffer = buffer.split(b"\0")
                for raw in messages:
                    if raw:
                        self._dispatch(json.loads(raw))
        except (OSError, ValueError) as e:
            reason = f"reading the browser's pipe failed: {e}"
        with self._cond:
            self._gone = reason
            self._cond.notify_all()

    def _dispatch(self, message):
        with self._cond:
            if "id" in message:
                self._responses[message["id"]] = message
            else:
                self.events.append({"method": message.get("method"),
                                    "params": message.get("params", {}),
                                    "sessionId": message.get("sessionId")})
            self._cond.notify_all()

    def _wait(self, ready, what, timeout):
        """Waits until ready() (called under the lock) is not None; returns its value."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        with self._cond:
            while True:
                value = ready()
                if value is not None:
                    return value
                if self._gone:
                    raise CDPError(f"{what}: {self._gone}\n{self.log_tail()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPTimeout(f"{what}: nothing after {limit:g} s")
                self._cond.wait(left)

    def send(self, method, params=None, session_id=None, timeout=None):
        """Sends one command and returns its result; raises CDPError on an error reply."""
        with self._cond:
            self._next_id += 1
            message_id = self._next_id
        message = {"id": message_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        data = json.dumps(message).encode() + b"\0"
        with self._write_lock:
            try:
                while data:
                    data = data[os.write(self._out, data):]
            except OSError as e:
                raise CDPError(f"{method}: cannot write to the browser: {e}") from None
        reply = self._wait(lambda: self._responses.pop(message_id, None), method, timeout)
        if "error" in reply:
            error = reply["error"]
            raise CDPError(f"{method}: {error.get('message')} ({error.get('code')})"
                           + (f": {error['data']}" if error.get("data") else ""))
        return reply.get("result", {})

    def event_count(self):
        with self._cond:
            return len(self.events)

    def wait_event(self, method, session_id=None, since=0, predicate=None, timeout=None):
        """The first event `method` (of `session_id`, if given) at or after index `since` that
        satisfies predicate(params); waits for it."""
        def find():
            for event in self.events[since:]:
                if event["method"] != method:
                    continue
                if session_id and event["sessionId"] != session_id:
                    continue
                if predicate is None or predicate(event["params"]):
                    return event
            return None
        return self._wait(find, f"waiting for {method}", timeout)

    def events_of(self, session_id, method=None):
        with self._cond:
            return [e for e in self.events
                    if e["sessionId"] == session_id and (method is None or e["method"] == method)]

    def new_page(self, timeout=None):
        return Page(self, timeout=timeout)

    def close(self):
        """Asks the browser to close, then terminates or kills it; removes its profile."""
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None and not self._gone:
                try:
                    self.send("Browser.close", timeout=5)
                except CDPError:
                    pass
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    try:
                        os.killpg(process.pid, signal.SIGKILL)
                    except OSError:
                        process.kill()
                    process.wait()
            for fd in (self._out, self._in):
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _js_string(text):
    return json.dumps(text)


class Page:
    """One tab, attached as a flat session, with Page, Runtime, Network and Log enabled."""

    def __init__(self, browser, timeout=None):
        self.browser = browser
        self.timeout = timeout
        self.target_id = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session_id = browser.send("Target.attachToTarget",
                                       {"targetId": self.target_id, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable")

    def send(self, method, params=None, timeout=None):
        return self.browser.send(method, params, session_id=self.session_id,
                                 timeout=self.timeout if timeout is None else timeout)

    def navigate(self, url, timeout=None):
        """Loads url and waits for its load event."""
        since = self.browser.event_count()
        result = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if result.get("errorText"):
            raise CDPError(f"navigating to {url}: {result['errorText']}")
        self.browser.wait_event("Page.loadEventFired", self.session_id, since,
                                timeout=self.timeout if timeout is None else timeout)

    def eval(self, expression, timeout=None):
        """The value of a JavaScript expression (promises awaited); raises on a JS exception."""
        result = self.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
            "userGesture": True}, timeout=timeout)
        details = result.get("exceptionDetails")
        if details:
            exception = details.get("exception", {})
            message = exception.get("description") or exception.get("value") or details.get(
                "text", "exception")
            raise CDPError(f"JavaScript: {message}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression, timeout=None, what=None):
        """Polls a JavaScript expression until it is truthy; returns its value."""
        limit = (self.timeout or self.browser.timeout) if timeout is None else timeout
        deadline = time.monotonic() + limit
        while True:
            value = self.eval(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CDPTimeout(f"{what or expression}: still false after {limit:g} s")
            time.sleep(0.02)

    def settle(self):
        """Waits two animation frames (or 100 ms), so that rendering driven by them is done."""
        self.eval("new Promise(r => { let done = false; const f = () => { if (!done) "
                  "{ done = true; r(true); } }; requestAnimationFrame(() => "
                  "requestAnimationFrame(f)); setTimeout(f, 100); })")

    def box(self, selector):
        """Scrolls the element into view; its centre and size in CSS pixels of the viewport."""
        box = self.eval(f"""(() => {{
            const el = document.querySelector({_js_string(selector)});
            if (!el) return {{missing: true}};
            el.scrollIntoView({{block: "center", inline: "center"}});
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return {{x, y, width: r.width, height: r.height,
                     covered: hit && !el.contains(hit) ? hit.outerHTML.slice(0, 120) : null}};
        }})()""")
        if box.get("missing"):
            raise CDPError(f"no element matches {selector}")
        if box["width"] <= 0 or box["height"] <= 0:
            raise CDPError(f"{selector} has no size (hidden?)")
        return box

    def click(self, selector):
        """A real left click in the middle of the element, as a mouse would give it."""
        box = self.box(selector)
        if box["covered"]:
            raise CDPError(f"{selector}: its centre is covered by {box['covered']}")
        x, y = box["x"], box["y"]
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "buttons": 1,
                                                   "clickCount": 1})

    def focus(self, selector):
        self.eval(f"""(() => {{
            const el = document.querySelector({_js_string(selector)});
            if (!el) throw new Error("no element matches " + {_js_string(selector)});
            el.focus(); return document.activeElement === el; }})()""")

    def press_key(self, key):
        """Presses and releases one key: a name in KEYS, or a single printable character."""
        if key in KEYS:
            code, vk, text = KEYS[key]
            key = " " if key == "Space" else key
        elif len(key) == 1:
            text, upper = key, key.upper()
            code = (f"Key{upper}" if upper.isalpha() else f"Digit{key}" if key.isdigit()
                    else "")
            vk = ord(upper) if upper.isalnum() else 0
        else:
            raise ValueError(f"press_key does not know the key {key!r}")
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code,
                "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        if text:
            down.update(text=text, unmodifiedText=text)
        self.send("Input.dispatchKeyEvent", down)
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": vk,
                                             "nativeVirtualKeyCode": vk})

    def type_text(self, text):
        """Types text into the focused element, as an input method would."""
        self.send("Input.insertText", {"text": text})

    def set_viewport(self, width, height, scale=1, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def screenshot(self, path, full_page=False):
        """Writes a PNG of the viewport (or of the whole page) to path; returns its size."""
        params = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True, clip={
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        data = base64.b64decode(self.send("Page.captureScreenshot", params)["data"])
        with open(path, "wb") as f:
            f.write(data)
        return len(data)

    def requests(self):
        """The URL of every request this tab has started, in order."""
        return [e["params"]["request"]["url"]
                for e in self.browser.events_of(self.session_id, "Network.requestWillBeSent")]

    def console_errors(self):
        """Console messages and log entries of level error, as text."""
        errors = []
        for e in self.browser.events_of(self.session_id):
            if e["method"] == "Log.entryAdded" and e["params"]["entry"].get("level") == "error":
                entry = e["params"]["entry"]
                errors.append(f"{entry.get('source')}: {entry.get('text')}"
                              + (f" ({entry['url']})" if entry.get("url") else ""))
            elif e["method"] == "Runtime.consoleAPICalled" and e["params"]["type"] == "error":
                errors.append("console.error: " + " ".join(
                    str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
        return errors

    def exceptions(self):
        """Uncaught JavaScript exceptions, as text."""
        found = []
        for e in self.browser.events_of(self.session_id, "Runtime.exceptionThrown"):
            details = e["params"]["exceptionDetails"]
            exception = details.get("exception", {})
            found.append(exception.get("description") or details.get("text", "exception"))
        return found

    def close(self):
        try:
            self.browser.send("Target.closeTarget", {"targetId": self.target_id}, timeout=5)
        except CDPError:
            pass
