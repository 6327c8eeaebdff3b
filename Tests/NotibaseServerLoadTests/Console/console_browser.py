"""The web console in a real browser: Debian's headless Chromium driven through WebDriver.

Starts `notibase demo --console` (a server, simulated iPhones and an Android phone, their data),
then signs in, composes a message with two buttons and an image, checks the live preview, sends it,
watches the funnel reach rendered and an action, opens a device's log, shows hostile content as
text, fails to sign in with a wrong key, and manages apps with the admin key. A screenshot of each
page goes to the directory named by --screenshots. Exits 0 when every check passed.

    python console_browser.py --notibase .build/debug/notibase --screenshots DIR
"""
import argparse
import base64
import datetime
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">Shipped'
checks = []


def check(condition, what):
    checks.append(what)
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise AssertionError(what)


def certificate_p12(bundle_id, password):
    """A self-signed push certificate for `bundle_id` and its key, as PKCS#12."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Apple Push Services: " + bundle_id), x509.NameAttribute(NameOID.USER_ID, bundle_id)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=365)).sign(key, hashes.SHA256()))
    return pkcs12.serialize_key_and_certificates(b"push", key, certificate, None, serialization.BestAvailableEncryption(password))


def read_until(process, patterns, what):
    """Reads the process's output until each of `patterns` (name: regular expression) matched a
    line; returns the first group of each by name."""
    lines, found = [], {}
    deadline = time.time() + 120
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        for name, pattern in patterns.items():
            if m := re.search(pattern, line.strip()):
                found[name] = m.group(1)
        if len(found) == len(patterns):
            return found
    process.kill()
    raise SystemExit(what + ":\n" + "".join(lines))


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def start_demo(binary):
    process = subprocess.Popen([binary, "demo", "--console"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, read_until(process, {"url": r"The console: (http://\S+)", "server": r"server key\s+(nb_server_\S+)",
                                         "admin": r"admin key\s+(nb_admin_\S+?)\)?$"}, "notibase demo --console did not print the console's URL")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("NOTIBASE_CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1440,900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("NOTIBASE_CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=options, service=service)


class Console:
    def __init__(self, driver, url, screenshots):
        self.driver, self.url, self.screenshots = driver, url, screenshots
        self.wait = WebDriverWait(driver, 20)

    def shot(self, name, top=True):
        """What a reader sees at 1440x900 (or the phone's size), from the top of the page."""
        path = os.path.join(self.screenshots, name + ".png")
        if top:
            self.driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.2)
        self.driver.save_screenshot(path)
        print("screenshot " + path, flush=True)

    def press(self, element):
        """Clicks an element after scrolling it to the middle of the window (Send's bar stays over
        the bottom of the window, where WebDriver would leave it)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def unfold(self, css):
        """Opens a folded section (details) of the page."""
        self.driver.execute_script("document.querySelector(arguments[0]).open = true", css)

    def shown(self, css):
        """Whether an element is drawn (not hidden, not display: none)."""
        return self.driver.execute_script("const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0", css)

    def rect(self, css):
        return self.driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                          "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight}", css)

    def record(self):
        """Keeps every request the page makes from now on in window.__requests (see STUB)."""
        self.driver.execute_script(STUB, {"method": "NONE", "path": "^$", "keys": ["unused"], "value": None})
        self.driver.execute_script("window.__requests = []")

    def requests(self, method, path):
        return self.driver.execute_script("return window.__requests.filter((r) => r.method === arguments[0] && r.path.endsWith(arguments[1]))", method, path)

    def stub(self, method, path, keys, value):
        """Changes what the page's fetch answers (see STUB)."""
        self.driver.execute_script(STUB, {"method": method, "path": path, "keys": keys, "value": value})

    def find(self, css):
        return self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))

    def visible(self, css):
        return self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def until(self, what, predicate, timeout=30):
        try:
            # Pages that poll redraw themselves: an element read mid-redraw is read again.
            WebDriverWait(self.driver, timeout, poll_frequency=0.25, ignored_exceptions=[StaleElementReferenceException]).until(lambda _: predicate())
        except TimeoutException:
            check(False, what)
        check(True, what)

    def text(self, css):
        # Read in the page, in one step: a polling page may redraw between finding and reading.
        return self.driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText.trim() : ''", css)

    def texts(self, css, prop="innerText"):
        # All at once, in the page: a redraw between finding and reading cannot make one stale.
        return self.driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e[arguments[1]].trim())", css, prop)

    def type_into(self, css, *texts):
        """Types into the element `css` names; if the page redrew it meanwhile (a list loading
        beside a form), finds the new one and types again."""
        for _ in range(40):
            try:
                element = self.find(css)
                element.clear()
                for text in texts:
                    element.send_keys(text)
                return
            except StaleElementReferenceException:
                time.sleep(0.25)
        check(False, "typing into " + css)

    def field(self, name):
        return self.find(f'[data-field="{name}"] input, [data-field="{name}"] textarea, [data-field="{name}"] select')

    def sign_in(self, key):
        self.driver.get(self.url)
        box = self.find('input[name="key"]')
        box.clear()
        box.send_keys(key)
        box.send_keys(Keys.ENTER)

    def sign_out(self):
        self.driver.find_element(By.ID, "sign-out").click()
        self.find('input[name="key"]')

    def answer_confirm(self, expected, accept=True):
        """Waits for the page's confirmation dialog, checks that it says `expected`, and accepts
        (or dismisses) it; returns its text."""
        WebDriverWait(self.driver, 10).until(EC.alert_is_present())
        alert = self.driver.switch_to.alert
        text = alert.text
        check(expected in text, f"the confirmation says {expected!r}: {text!r}")
        if accept:
            alert.accept()
        else:
            alert.dismiss()
        return text

    def send_confirmed(self, expected, accept=True):
        """Presses Send and answers the confirmation that names how many devices it reaches."""
        self.driver.find_element(By.XPATH, "//button[text()='Send']").click()
        return self.answer_confirm(expected, accept)

    def headings_unique(self, page):
        """No two headings of the page (h1, h2) say the same."""
        texts = self.texts("main h1, main h2")
        check(len(texts) == len(set(texts)), f"no duplicate heading on the {page} page: {texts}")

    def typed_confirmation(self, css, word):
        """Opens the danger zone holding the form `css`, checks its button waits for `word`, types
        it and presses the button."""
        self.driver.execute_script("document.querySelector(arguments[0]).closest('details').open = true", css)
        box = self.find(css + " input")
        button = self.find(css + " button")
        check(not button.is_enabled(), f"{button.text} waits for “{word}” to be typed")
        box.send_keys(word + "x")
        check(not button.is_enabled(), f"{button.text}: another word does not allow it")
        box.send_keys(Keys.BACKSPACE)
        check(button.is_enabled(), f"{button.text}: “{word}” typed out allows it")
        self.press(button)


# Wraps the page's fetch so that answers to `method path` (path matched by a regular expression)
# get `value` set at `keys` in their JSON (a key "*" is every item of an array, -1 its last):
# for API fields this server may not have yet. Data, not code: the page's policy forbids eval.
# The console reads fetch at each call, so its pages see the stub until the page is reloaded.
STUB = """window.__stubs = window.__stubs || [];
window.__stubs.push(arguments[0]);
const place = (node, keys, value) => {
  if (node === null || typeof node !== 'object') return;
  const [key, ...rest] = keys;
  const targets = key === '*' ? (Array.isArray(node) ? node.map((_, i) => i) : []) : [key === -1 && Array.isArray(node) ? node.length - 1 : key];
  for (const k of targets) {
    if (!rest.length) { node[k] = value; continue; }
    if (node[k] === undefined) node[k] = {};
    place(node[k], rest, value);
  }
};
if (!window.__realFetch) {
  window.__realFetch = window.fetch;
  window.__requests = [];
  window.fetch = async (path, init) => {
    window.__requests.push({method: (init && init.method) || 'GET', path: String(path), body: (init && init.body) || null});
    const answer = await window.__realFetch(path, init);
    const method = (init && init.method) || 'GET';
    const stubs = window.__stubs.filter((stub) => stub.method === method && new RegExp(stub.path).test(String(path)));
    if (!stubs.length) return answer;
    const json = JSON.parse(await answer.text());
    for (const stub of stubs) place(json, stub.keys, stub.value);
    return new Response(JSON.stringify(json), {status: answer.status, headers: {'Content-Type': 'application/json'}});
  };
}"""

UNLABELLED = """return [...document.querySelectorAll('main input, main select, main textarea, main button')]
  .filter((e) => e.type !== 'hidden' && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
  .map((e) => e.outerHTML.slice(0, 80))"""


def labelled(console, page):
    missing = console.driver.execute_script(UNLABELLED)
    check(not missing, f"every control of the {page} page has a label: {missing}")


# What the webhook receiver answers: markup the page must show as text, never run.
HOSTILE_ANSWER = '<img src=x onerror="window.__pwned = 3">received'


class Receiver(http.server.BaseHTTPRequestHandler):
    """A webhook endpoint on loopback (http: the server runs with --webhook-allow-insecure): keeps
    every batch it gets and answers 200 with HOSTILE_ANSWER as HTML."""
    batches = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.batches.append({"path": self.path, "headers": {name.lower(): value for name, value in self.headers.items()}, "body": json.loads(body or b"{}")})
        answer = HOSTILE_ANSWER.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


def start_serve(binary):
    """`notibase serve --webhook-allow-insecure` on a free port (the demo does not take it), with
    an admin key of our own; returns the process, its base URL and the key."""
    admin = "nb_admin_" + base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    data = tempfile.mkdtemp()
    process = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", data, "--sender", "simulated", "--no-access-log",
                                "--webhook-allow-insecure"], env={**os.environ, "NOTIBASE_ADMIN_KEY": admin},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = read_until(process, {"url": r"listening on (http://\S+)"}, "notibase serve did not say where it listens")["url"]
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, base, admin


def api(base, method, path, key, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def run_webhooks(console, binary):
    """The Webhooks page at 1440x900 against a server that may send to loopback: add an endpoint
    (its secret shown once), send a test event the receiver gets, read the attempt (the receiver's
    hostile answer shown as text), rotate the secret, disable, edit, replay and delete."""
    d = console.driver
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    serve, base, admin = start_serve(binary)
    try:
        app = api(base, "POST", "/v1/apps", admin, {"name": "Webhook shop"})
        console.sign_out()
        page = Console(d, base + "/console/", console.screenshots)
        page.sign_in(app["serverKey"])
        page.find('[data-field="message.title"] input')
        d.find_element(By.CSS_SELECTOR, '#nav a[data-page="webhooks"]').click()
        page.until("the Webhooks page lists no endpoint yet", lambda: "No endpoints yet." in page.text(".webhooks"))
        page.until("the banner names both trial settings of this server",
                   lambda: "--sender simulated" in page.text("#trial") and "--webhook-allow-insecure" in page.text("#trial"))
        labelled(page, "webhooks")

        # The form offers the API's own event types, each with what it means.
        types = api(base, "GET", "/v1/webhooks/event-types", app["serverKey"])["items"]
        offered = [(box.get_attribute("value"), box.find_element(By.XPATH, "..").get_attribute("title"))
                   for box in d.find_elements(By.CSS_SELECTOR, '[aria-labelledby="add-webhook-title"] .checks input')]
        check(len(types) >= 14 and offered == [(item["type"], item["description"]) for item in types],
              f"the form offers the API's event types with their descriptions: {offered}")

        # A URL the API refuses is said next to the URL field, as the API names it.
        page.type_into('[data-field="url"] input', "ftp://127.0.0.1/hook")
        page.press(d.find_element(By.XPATH, "//button[text()='Add the endpoint']"))
        page.until("a refused URL is shown next to the URL field", lambda: "url" in page.text('[data-field="url"] .error'))

        # Added: the secret is shown once, with a copy button.
        page.type_into('[data-field="url"] input', hook)
        page.type_into('[data-field="description"] input', "Warehouse <b>feed</b>")
        page.press(d.find_element(By.XPATH, "//button[text()='Add the endpoint']"))
        page.until("the new endpoint's secret is shown once", lambda: "whsec_" in page.text(".secret"))
        first_secret = page.text(".secret dd code")
        check(d.find_elements(By.CSS_SELECTOR, ".secret button.copy"), "the secret has a copy button")
        page.until("the endpoint is listed, enabled, for every type", lambda: page.text(".webhook .webhook-url") == hook
                   and page.text(".webhook .health").startswith("Enabled") and page.text(".webhook .types") == "Every type")
        check("Warehouse <b>feed</b>" in page.text(".webhook .facts"), "the description is shown as text")
        check(first_secret not in page.text(".webhooks"), "the secret is not on the endpoint's card")

        # A test event reaches the receiver; its attempt is listed with the answer as text.
        page.press(d.find_element(By.XPATH, "//button[text()='Send a test event']"))
        page.until("the receiver gets the test event", lambda: any(event["type"] == "webhook.test" for batch in Receiver.batches
                                                                   for event in batch["body"].get("data", {}).get("events", [])))
        check(Receiver.batches[0]["headers"].get("webhook-signature", "").startswith("v1,"), "the batch is signed")

        def attempt_listed():
            if not d.find_elements(By.CSS_SELECTOR, ".attempts tbody tr"):
                page.press(d.find_element(By.XPATH, "//button[text()='Refresh attempts']"))
                time.sleep(0.5)
            return d.find_elements(By.CSS_SELECTOR, ".attempts tbody tr")
        page.until("the attempt is listed", attempt_listed)
        row = page.texts(".attempts tbody tr td")
        check(row[1] == "Answered" and row[2] == "200" and row[3].endswith(" ms"), f"the attempt shows its outcome, status and latency: {row}")
        check(page.texts(".attempts pre.answer", "textContent") == [HOSTILE_ANSWER], "the answer's first bytes are shown literally")
        check(not d.find_elements(By.CSS_SELECTOR, "main img") and d.execute_script("return window.__pwned") is None,
              "the receiver's answer ran nothing and drew no image")
        page.shot("webhooks")
        d.execute_script("document.querySelector('.webhook').scrollIntoView()")
        page.shot("webhooks-attempts", top=False)

        # Rotating shows the new secret once.
        page.press(d.find_element(By.XPATH, "//button[text()='Rotate the secret']"))
        WebDriverWait(d, 5).until(EC.alert_is_present())
        d.switch_to.alert.accept()
        page.until("the rotated secret is shown once", lambda: "new signing secret" in page.text(".secret")
                   and page.text(".secret dd code").startswith("whsec_") and page.text(".secret dd code") != first_secret)

        # Disabled by hand, then enabled again with its URL changed in Edit.
        page.press(d.find_element(By.XPATH, "//button[text()='Disable']"))
        page.until("a disabled endpoint says so", lambda: page.text(".webhook .health").startswith("Disabled"))
        endpoint = api(base, "GET", "/v1/webhooks", app["serverKey"])["items"][0]
        check(endpoint["enabled"] is False, "the API has the endpoint disabled")
        page.unfold(".webhook details.more")
        check(not page.find(".edit-webhook [data-field=enabled] input").is_selected(), "Edit shows it disabled")
        page.type_into(".edit-webhook [data-field=url] input", "gopher://x")
        page.press(d.find_element(By.XPATH, "//button[text()='Save']"))
        page.until("an edit's refused URL is shown next to its URL field", lambda: "url" in page.text(".edit-webhook [data-field=url] .error"))
        page.type_into(".edit-webhook [data-field=url] input", hook + "/2")
        page.press(page.find(".edit-webhook [data-field=enabled] input"))
        page.press(d.find_element(By.XPATH, "//button[text()='Save']"))
        page.until("the edited endpoint is enabled at its new URL", lambda: page.text(".webhook .webhook-url") == hook + "/2"
                   and page.text(".webhook .health").startswith("Enabled"))

        # Replay since an hour ago (in the reader's time zone).
        d.execute_script("document.querySelectorAll('.webhook details.more')[1].open = true")
        d.execute_script("const t = new Date(Date.now() - 3600e3); t.setMinutes(t.getMinutes() - t.getTimezoneOffset());"
                         "const i = document.querySelector('.replay input'); i.value = t.toISOString().slice(0, 19)")
        page.press(d.find_element(By.XPATH, "//button[text()='Replay']"))
        page.until("the replay says how many events go again", lambda: "are sent again" in page.text(".replay [role=status]"))
        labelled(page, "webhooks")
        page.headings_unique("webhooks")

        # Deleting asks first.
        page.press(d.find_element(By.XPATH, "//button[text()='Delete']"))
        WebDriverWait(d, 5).until(EC.alert_is_present())
        d.switch_to.alert.dismiss()
        check(len(d.find_elements(By.CSS_SELECTOR, ".webhook")) == 1, "a dismissed confirmation deletes nothing")
        page.press(d.find_element(By.XPATH, "//button[text()='Delete']"))
        WebDriverWait(d, 5).until(EC.alert_is_present())
        d.switch_to.alert.accept()
        page.until("the deleted endpoint is gone", lambda: "No endpoints yet." in page.text(".webhooks"))
        check(api(base, "GET", "/v1/webhooks", app["serverKey"])["items"] == [], "the API has no endpoint left")
    finally:
        receiver.shutdown()
        stop(serve)


def run_long_lists(console, binary):
    """Lists longer than a page, against a server of its own: a device with 59 deliveries, a
    message with 120, 125 devices. Each page reads newest first, says how many there are, and
    shows the rest with "Show … more", each item once."""
    d = console.driver
    serve, base, admin = start_serve(binary)
    try:
        app = api(base, "POST", "/v1/apps", admin, {"name": "Long lists"})
        key = app["serverKey"]
        devices = [{"platform": "ios", "token": f"{n:064x}", "externalUserId": f"user-{n}", **({"tags": ["wave"]} if n <= 120 else {})}
                   for n in range(1, 126)]
        check(api(base, "POST", "/v1/devices/batch", key, {"devices": devices})["created"] == 125, "125 devices are registered")
        busy = api(base, "GET", "/v1/devices?externalUserId=user-125", key)["items"][0]["id"]
        for n in range(1, 60):
            api(base, "POST", "/v1/messages", key, {"message": {"title": f"Bulk {n}"}, "audience": {"deviceIds": [busy]}})
        wave = api(base, "POST", "/v1/messages", key, {"message": {"title": "Wave"}, "audience": {"tags": {"anyOf": ["wave"]}}})["id"]
        console.sign_out()
        page = Console(d, base + "/console/", console.screenshots)
        page.sign_in(key)
        page.find('[data-field="message.title"] input')

        d.get(page.url + "#/devices/" + busy)
        page.until("a device's log says how many of its deliveries it shows",
                   lambda: page.text("#device-log-count") == "The newest 50 of 59 deliveries.")
        titles = lambda: page.texts(".device-log > li > h3 a")
        check(titles()[:2] == ["Bulk 59", "Bulk 58"] and len(titles()) == 50, f"a device's log starts with its newest delivery: {titles()[:3]}")
        page.shot("device-long")
        check(page.text("#device-log-more") == "Show 9 more of the 9 older", "the device's log offers the older nine")
        page.press(d.find_element(By.ID, "device-log-more"))
        page.until("the rest of a device's log is shown", lambda: page.text("#device-log-count") == "All 59 deliveries, newest first.")
        check(titles() == [f"Bulk {n}" for n in range(59, 0, -1)], "every delivery of the device once, newest first")
        check(not page.shown("#device-log-more"), "nothing more is offered at the end of a device's log")

        d.get(page.url + "#/messages/" + wave)
        page.until("a message's log says how many of its deliveries it shows",
                   lambda: page.text("#message-log-count") == "The newest 100 of 120 deliveries.")
        page.shot("message-long")
        d.execute_script("document.getElementById('message-log-more').scrollIntoView({block: 'end'})")
        page.shot("message-long-end", top=False)
        page.press(d.find_element(By.ID, "message-log-more"))
        page.until("the rest of a message's log is shown", lambda: page.text("#message-log-count") == "All 120 deliveries, newest first.")
        users = page.texts("table.deliveries tbody td:first-child a")
        check(len(users) == 120 and len(set(users)) == 120, f"each of the message's 120 deliveries once: {len(users)}, {len(set(users))} distinct")

        d.find_element(By.CSS_SELECTOR, '#nav a[data-page="devices"]').click()
        page.until("the devices list says how many devices there are", lambda: page.text("#devices-count") == "The newest 50 of 125 devices.")
        check(page.texts("table.devices tbody td:nth-child(3)")[0] == "user-125", "the devices list starts with the newest device")
        page.shot("devices-long")
        check(page.text("#devices-more") == "Show 50 more of the 75 older", "the devices list offers the next 50")
        for shown in (100, 125):
            page.press(d.find_element(By.ID, "devices-more"))
            expected = f"The newest {shown} of 125 devices." if shown < 125 else "All 125 devices, newest first."
            page.until(f"{shown} devices are shown", lambda: page.text("#devices-count") == expected)
        users = page.texts("table.devices tbody td:nth-child(3)")
        check(users == [f"user-{n}" for n in range(125, 0, -1)], "every device once, newest first")
        run_device_actions(page, base, key)
    finally:
        stop(serve)


def run_device_actions(page, base, key):
    """On the long lists' server (125 devices, user-1 … user-125, 120 tagged wave): a large
    audience asks first, naming its count, a small one does not; a device is signed out, another
    deleted and a user forgotten, each once a word is typed out; the forgotten user reads as such
    in the messages list."""
    d = page.driver
    sent_before = api(base, "GET", "/v1/messages?limit=1&total=true", key)["total"]
    d.get(page.url + "#/compose")
    page.field("message.title").send_keys("Wave again")
    Select(page.field("audience")).select_by_value("anyOf")
    page.type_into('[data-field="audience.values"] input', "wave")
    page.until("the wave is counted", lambda: "Reaches 120 devices now." in page.text(".count"))
    page.send_confirmed("to 120 devices now?", accept=False)
    time.sleep(0.5)
    check(api(base, "GET", "/v1/messages?limit=1&total=true", key)["total"] == sent_before, "a dismissed confirmation of 120 devices sends nothing")
    # 1 device (and a user ID that matches nobody): sent without asking.
    Select(page.field("audience")).select_by_value("externalUserIds")
    page.type_into('[data-field="audience.values"] input', "user-1, nobody-99")
    page.until("the small audience is counted", lambda: "Reaches 1 device now." in page.text(".count"))
    page.field("message.title").send_keys(" for user-1")
    d.find_element(By.XPATH, "//button[text()='Send']").click()
    page.find("#message-state")
    check(not EC.alert_is_present()(d), "an audience of 1 device is sent without asking")

    devices = {item["externalUserId"]: item["id"] for item in api(base, "GET", "/v1/devices?limit=5", key)["items"]}
    # Sign out user-2's device: its user ID is cleared, the device stays.
    d.get(page.url + "#/devices/" + devices["user-2"])
    page.until("the device page offers sign out, delete and forget", lambda: len(d.find_elements(By.CSS_SELECTOR, ".device-actions details")) == 3)
    labelled(page, "device")
    page.headings_unique("device")
    d.execute_script("document.querySelectorAll('.device-actions details').forEach((e) => { e.open = true })")
    d.execute_script("document.querySelector('.device-actions').scrollIntoView()")
    page.shot("device-actions", top=False)
    d.execute_script("document.querySelectorAll('.device-actions details').forEach((e) => { e.open = false })")
    page.typed_confirmation(".sign-out-device", "user-2")
    page.until("a signed-out device shows no user", lambda: re.search(r"External user ID\s+—", page.text(".facts")))
    check(api(base, "GET", "/v1/devices/" + devices["user-2"], key).get("externalUserId") is None, "the API has the device signed out")
    # Delete user-3's device: the start of its ID typed out.
    d.get(page.url + "#/devices/" + devices["user-3"])
    page.find(".delete-device")
    page.typed_confirmation(".delete-device", devices["user-3"][:8])
    page.until("a deleted device says so", lambda: "is deleted" in page.text(".notice"))
    try:
        api(base, "GET", "/v1/devices/" + devices["user-3"], key)
        check(False, "the deleted device is gone from the API")
    except urllib.error.HTTPError as error:
        check(error.code == 404, "the deleted device is gone from the API")
    # Forget user-1: every device of theirs deleted, their ID out of the message's audience.
    d.get(page.url + "#/devices/" + devices["user-1"])
    page.find(".forget-user")
    page.typed_confirmation(".forget-user", "user-1")
    page.until("forgetting a user says what was removed", lambda: "user-1 is forgotten: 1 device deleted" in page.text(".notice"))
    check(api(base, "GET", "/v1/devices?externalUserId=user-1", key)["items"] == [], "the API has no device of the forgotten user")
    d.get(page.url + "#/messages")
    page.until("a forgotten user reads as such in the messages list",
               lambda: "user nobody-99 and a forgotten user (1)" in page.texts("table.messages tbody td:nth-child(3)"))
    page.shot("messages-forgotten")


def run(console, keys, binary):
    d = console.driver

    # A wrong key is refused, next to the field, and nothing is stored.
    console.sign_in("nb_server_" + "x" * 43)
    console.until("a wrong key is refused", lambda: "did not accept" in console.text(".field .error"))
    check(d.execute_script("return sessionStorage.getItem('notibase.key')") is None, "a refused key is not kept")
    check("nb_server_" not in d.current_url, "the key is never in the URL")
    check(not console.shown("#nav a") and not console.shown("#sign-out"), "signed out, neither the menu nor Sign out shows")
    # The demo's server runs the simulated sender: every page, this one too, says what that means.
    console.until("the sign-in page shows the trial banner", lambda: "nothing is delivered to Apple or Google" in console.text("#trial"))
    check("--sender simulated" in console.text("#trial"), "the trial banner names the setting")
    console.shot("sign-in-refused")

    labelled(console, "sign-in")
    # Sign in with the keyboard alone: the key field has the focus, Enter submits, and the new
    # page's heading gets the focus (and is announced).
    d.get(console.url)
    console.find('input[name="key"]')
    check(d.execute_script("return document.activeElement.name") == "key", "the key field has the focus")
    d.switch_to.active_element.send_keys(keys["server"], Keys.ENTER)
    console.find('[data-field="message.title"] input')
    console.until("the page's heading has the focus", lambda: d.execute_script("return document.activeElement.tagName + ' ' + document.activeElement.textContent") == "H1 Compose")
    check(d.find_element(By.ID, "status").get_attribute("textContent") == "Compose", "the new page is announced")
    d.switch_to.active_element.send_keys(Keys.TAB)
    check(d.execute_script("return document.activeElement.name") == "audienceKind", "Tab from the heading reaches the audience, the form's first field")
    check(d.execute_script("return sessionStorage.getItem('notibase.key')") == keys["server"], "the key is kept in sessionStorage")
    check(keys["server"] not in d.current_url, "the key is not in the URL after signing in")
    check(console.shown("#sign-out") and console.shown('#nav a[data-page="compose"]'), "signed in, the menu and Sign out show")
    check(not console.shown('#nav a[data-page="apps"]'), "the server key's menu has no Apps")

    # Nothing is wrong with a form nobody has typed in yet.
    console.until("the empty form's preview has answered", lambda: d.execute_script("return document.querySelector('.preview').dataset.answered || ''") != "")
    time.sleep(0.5)  # past the preview's debounce
    previews = d.execute_script("return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/v1/preview'))")
    check(previews == [], f"an empty form asks the server for no preview (it would answer 400): {previews}")
    console.until("the audience is counted", lambda: "Reaches" in console.text(".count"))
    errors = d.execute_script("return [...document.querySelectorAll('main .error')].filter((e) => e.getClientRects().length).map((e) => e.textContent)")
    check(errors == [], f"no error shows before anything is typed: {errors}")
    # "IDs or tags" only for an audience that lists some, named after what it lists.
    check(not console.shown('[data-field="audience.values"]'), "Everyone asks for no IDs or tags")
    Select(console.field("audience")).select_by_value("anyOf")
    console.until("tags are asked for with any-of", lambda: console.shown('[data-field="audience.values"]')
                  and console.text('[data-field="audience.values"] label').startswith("Tags"))
    # External user IDs that match nobody: the count says how many of them.
    Select(console.field("audience")).select_by_value("externalUserIds")
    console.type_into('[data-field="audience.values"] input', "Anna's iPhone, nobody-1, nobody-2, nobody-2")
    console.until("an externalUserIds audience counts its devices", lambda: "Reaches 1 device now." in console.text(".count"))
    console.until("it warns how many of its user IDs match nobody",
                  lambda: console.text(".unmatched") == "2 of these 3 user IDs match no active device: those users do not get it.")
    console.shot("compose-unmatched")
    console.type_into('[data-field="audience.values"] input', "Anna's iPhone")
    console.until("no warning when every user ID matches", lambda: not console.shown(".unmatched"))
    d.find_element(By.CSS_SELECTOR, '[data-field="audience.values"] input').clear()
    Select(console.field("audience")).select_by_value("all")
    check(not console.shown('[data-field="audience.values"]'), "back to Everyone, the IDs or tags are hidden again")

    # Credentials that fail are loud on compose (the health as GET /v1/apps gives it, stubbed
    # where this server does not report it), and the page comes back without the banner after.
    console.stub("GET", r"/v1/apps$", ["items", 0, "credentials", "apns"], {
        "keyId": "KEY1234567", "teamId": "TEAM123456", "bundleId": "com.example.shop", "environment": "production", "updatedAt": "2026-01-02T03:04:05Z",
        "health": {"state": "failing", "lastSuccessAt": None, "lastFailureAt": "2026-01-02T03:05:00Z", "lastFailureReason": "InvalidProviderToken"}})
    d.execute_script("location.hash = '#/devices'")
    console.find('input[name="q"]')
    d.execute_script("location.hash = '#/compose'")
    console.until("failing APNs credentials show a red banner on compose",
                  lambda: "APNs credentials are failing" in console.text(".banners .banner") and "InvalidProviderToken" in console.text(".banners .banner"))
    # Credentials the provider refused when tested are loud too, with the reason and what to fix.
    console.stub("GET", r"/v1/apps$", ["items", 0, "credentials", "apns"], {
        "keyId": "KEY1234567", "teamId": "TEAM123456", "bundleId": "com.example.shop", "environment": "production", "updatedAt": "2026-01-02T03:04:05Z",
        "health": {"state": "untested", "lastSuccessAt": None, "lastFailureAt": None, "lastFailureReason": None},
        "test": {"state": "rejected", "reason": "BadTopic", "fix": "APNs refuses the topic: check the app's bundle ID.", "testedAt": "2026-01-02T03:05:00Z"}})
    d.execute_script("location.hash = '#/devices'")
    console.find('input[name="q"]')
    d.execute_script("location.hash = '#/compose'")
    console.until("APNs credentials refused when tested show a red banner with the fix",
                  lambda: "refused these credentials when tested" in console.text(".banners .banner") and "check the app's bundle ID" in console.text(".banners .banner"))
    d.execute_script("window.__stubs = []; location.hash = '#/devices'")
    console.find('input[name="q"]')
    d.execute_script("location.hash = '#/compose'")
    console.until("an app without credentials says so on compose", lambda: "no APNs or FCM credentials" in console.text(".banners .notice"))
    check(not console.shown(".banners .banner"), "no red banner without failing credentials")
    console.field("message.title")

    # Compose: hostile title, body, two buttons (the second destructive), an image.
    console.field("message.title").send_keys(HOSTILE)
    console.field("message.body").send_keys("Parcel 4242 arrives Thursday.")
    console.field("message.image").send_keys("https://images.demo.notibase/parcel.jpg")
    for number, (identifier, text) in enumerate([("track", "Track parcel"), ("cancel", "Cancel order")]):
        console.press(d.find_element(By.XPATH, "//button[text()='Add a button']"))
        # The row is drawn after the click is handled; wait for it rather than race it.
        console.until(f"button row {number + 1} is drawn", lambda: len(d.find_elements(By.CSS_SELECTOR, ".button-row")) > number)
        row = d.find_elements(By.CSS_SELECTOR, ".button-row")[number]
        check(row.find_element(By.CSS_SELECTOR, 'input[value="foreground"]').is_selected(), "a new button opens the app (foreground) unless told otherwise")
        row.find_element(By.CSS_SELECTOR, 'input[name="button-id"]').send_keys(identifier)
        row.find_element(By.CSS_SELECTOR, 'input[name="button-text"]').send_keys(text)
        if identifier == "cancel":
            console.press(row.find_element(By.CSS_SELECTOR, 'input[value="destructive"]'))

    # The live preview, from the server.
    console.until("the iPhone banner shows the title as text", lambda: console.text(".ios-banner .ios-title") == HOSTILE)
    check(console.text(".ios-banner .ios-app").startswith("DEMO SHOP") and console.texts(".android-app", "textContent") == ["Demo Shop · now"],
          f"the preview shows the app's name: {console.text('.ios-banner .ios-app')!r}, {console.texts('.android-app', 'textContent')!r}")
    font = lambda name: d.execute_script("return getComputedStyle(document.querySelector(`[data-field='${arguments[0]}'] textarea`)).fontFamily", name)
    check("monospace" not in font("message.body") and "monospace" in font("message.data"), f"the body is not monospace, the data is: {font('message.body')}")
    console.until("the expanded iPhone shows both buttons as iOS draws them",
                  lambda: console.texts(".ios-actions li") == ["Track parcel", "Cancel order"])
    console.until("the destructive button is drawn as destructive", lambda: console.texts(".ios-actions li", "className") == ["", "destructive"])
    console.until("the Android notification shows both actions", lambda: console.texts(".android-actions li", "textContent") == ["Track parcel", "Cancel order"])
    console.until("the Android notification shows the title as text", lambda: console.text(".android-card .android-title") == HOSTILE)
    console.until("the Android notification has its big picture", lambda: len(console.texts(".android-picture", "className")) == 1)
    console.until("both payloads are measured against 4096 bytes",
                  lambda: len(console.texts(".payload summary")) == 2 and all(re.search(r"\d+ of 4096 bytes", t) for t in console.texts(".payload summary")))
    console.until("the doctor finds nothing missing", lambda: "Nothing missing" in console.text(".doctor"))
    check(d.execute_script("return window.__pwned") is None, "the hostile title ran no script")
    check(len(d.find_elements(By.CSS_SELECTOR, "main script, main img[src='x']")) == 0, "the hostile title made no element")

    # Validation as the server does it, next to the field: a duplicate button ID.
    second = d.find_elements(By.CSS_SELECTOR, ".button-row")[1].find_element(By.CSS_SELECTOR, 'input[name="button-id"]')
    second.clear()
    second.send_keys("track")
    console.until("a duplicate button ID is flagged next to the field",
                  lambda: any(e.is_displayed() and "track" in e.text.lower() or "duplicate" in e.text.lower()
                              for e in d.find_elements(By.CSS_SELECTOR, ".button-row .error")))
    second.clear()
    second.send_keys("cancel")
    # A body too long for APNs is shortened, and the preview says so.
    body = console.field("message.body")
    d.execute_script("arguments[0].value = 'x'.repeat(5000); arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", body)
    console.until("a 5000-byte body is reported shortened", lambda: "shortened: body" in console.text(".payload summary"))
    d.execute_script("arguments[0].value = 'Parcel 4242 arrives Thursday.'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", body)
    console.until("the preview follows the shorter body", lambda: console.text(".ios-banner .ios-body") == "Parcel 4242 arrives Thursday.")

    # The doctor's verdict when iOS would draw no buttons: a category the app never registers.
    console.unfold("#more-content")
    category = console.field("message.category")
    for number in range(2):
        console.press(d.find_elements(By.XPATH, "//button[text()='Remove button']")[0])
    category.send_keys("INVITATION")
    console.until("the doctor says why iOS draws no buttons",
                  lambda: "nothing registers a category" in console.text(".doctor .problem") and console.text(".ios-none") == "No buttons")
    d.execute_script("window.scrollTo(0, 0); document.querySelector('.doctor').scrollIntoView({block: 'nearest'})")
    console.shot("compose-doctor", top=False)
    category.clear()
    for number, (identifier, text) in enumerate([("track", "Track parcel"), ("cancel", "Cancel order")]):
        console.press(d.find_element(By.XPATH, "//button[text()='Add a button']"))
        # The row is drawn after the click is handled; wait for it rather than race it.
        console.until(f"button row {number + 1} is drawn", lambda: len(d.find_elements(By.CSS_SELECTOR, ".button-row")) > number)
        row = d.find_elements(By.CSS_SELECTOR, ".button-row")[number]
        row.find_element(By.CSS_SELECTOR, 'input[name="button-id"]').send_keys(identifier)
        row.find_element(By.CSS_SELECTOR, 'input[name="button-text"]').send_keys(text)
        if identifier == "cancel":
            console.press(row.find_element(By.CSS_SELECTOR, 'input[value="destructive"]'))
    # A reply button: a text field on both platforms.
    console.press(d.find_element(By.XPATH, "//button[text()='Add a button']"))
    reply = d.find_elements(By.CSS_SELECTOR, ".button-row")[2]
    reply.find_element(By.CSS_SELECTOR, 'input[name="button-id"]').send_keys("reply")
    reply.find_element(By.CSS_SELECTOR, 'input[name="button-text"]').send_keys("Reply")
    console.press(reply.find_element(By.CSS_SELECTOR, 'input[name="button-input"]'))
    reply.find_element(By.CSS_SELECTOR, 'input[name="button-send"]').send_keys("Send")
    console.until("a reply button is drawn with its text field", lambda: console.texts(".ios-actions li")[-1:] == ["Reply (text field)"])
    console.until("the payload carries the text input", lambda: '"button": "Send"' in console.texts(".payload pre.json", "textContent")[0])
    console.press(reply.find_element(By.XPATH, ".//button[text()='Remove button']"))
    console.until("the buttons are back in the preview",
                  lambda: console.texts(".ios-actions li") == ["Track parcel", "Cancel order"] and not console.text(".doctor .problem"))

    # A French variant, previewed on its own; Chloé's Pixel (fr-FR) gets it.
    console.press(d.find_element(By.XPATH, "//button[text()='Add a locale variant']"))
    variant = d.find_element(By.CSS_SELECTOR, ".variant-row")
    variant.find_element(By.CSS_SELECTOR, 'input[name="variant-locale"]').send_keys("fr")
    variant.find_element(By.CSS_SELECTOR, 'input[name="variant-title"]').send_keys("Commande expédiée")
    variant.find_element(By.CSS_SELECTOR, 'input[name="variant-buttons"]').send_keys("Suivre, Annuler")
    console.until("the variant's locale can be previewed", lambda: "fr" in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#preview-locale option")])
    Select(d.find_element(By.ID, "preview-locale")).select_by_value("fr")
    console.until("the French variant is previewed with its own title and button texts",
                  lambda: console.text(".ios-banner .ios-title") == "Commande expédiée"
                  and console.texts(".ios-actions li") == ["Suivre", "Annuler"])
    Select(d.find_element(By.ID, "preview-locale")).select_by_value("")
    console.until("the default message is previewed again", lambda: console.text(".ios-banner .ios-title") == HOSTILE)

    # The audience: everyone, with its live count (the deleted app's iPhone is deactivated).
    console.until("the audience count is live", lambda: "Reaches 3 devices" in console.text(".count"))
    labelled(console, "compose")
    console.headings_unique("compose")
    # At 1440x900 the preview is beside the form, Send is in view, and the preview stays in view
    # while one scrolls down the form.
    form, side, send = console.rect("form.compose"), console.rect(".preview-side"), console.rect(".send-bar button.primary")
    check(side["left"] >= form["right"] and side["top"] < 300, f"the preview is beside the form: {form} {side}")
    check(0 <= send["top"] and send["bottom"] <= send["height"], f"Send is in view without scrolling: {send}")
    d.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    console.until("the preview stays in view at the bottom of the form",
                  lambda: 0 <= console.rect(".preview-side")["top"] < 100 and 0 <= console.rect(".ios-banner")["top"] < console.rect(".ios-banner")["height"])
    check(console.rect(".send-bar button.primary")["bottom"] <= send["height"], "Send is in view at the bottom of the form")
    console.shot("compose")

    # Send it; the message's page watches the funnel reach rendered and an action. The send's
    # warnings (stubbed where this server gives none) show on the message's page.
    console.stub("POST", r"/v1/messages$", ["warnings"], [{"code": "credentials_failing", "platform": "ios",
                                                          "message": "APNs credentials are failing: iPhones wait for them"}])
    console.stub("GET", r"/funnel$", ["waitingForCredentials"], [{"platform": "ios", "reason": "InvalidProviderToken", "count": 2,
                                                                  "explanation": "Upload a working .p8 key"}])
    console.send_confirmed("to everyone: 3 devices now?", accept=False)
    time.sleep(0.5)
    check(console.shown("form.compose") and api(console.url.split("/console")[0], "GET", "/v1/messages?limit=10", keys["server"])["items"][0]["message"]["title"] != HOSTILE,
          "a dismissed confirmation sends nothing")
    text = console.send_confirmed("to everyone: 3 devices now?")
    check(text.startswith("Send “" + HOSTILE), f"the confirmation names the message: {text}")
    console.find("#message-state")
    check(console.text("h1") == HOSTILE, "the message's page shows the hostile title as text")

    def step(label):
        value = d.execute_script("const e = [...document.querySelectorAll('[data-step] .value')].find((v) => v.parentElement.dataset.step === arguments[0]);"
                                 "return e ? e.textContent : ''", label)
        return int(value) if value.isdigit() else -1

    console.until("the funnel reaches rendered on every phone", lambda: step("Rendered") == 3 and step("with buttons") == 3 and step("with image") == 3)
    console.until("Anna's tap shows as an action", lambda: step("Action “track”") == 1, timeout=30)
    steps = d.execute_script("return [...document.querySelectorAll('[data-step]')].map((e) => e.dataset.step).filter((s) => s.startsWith('Action'))")
    check(steps == ["Action “track”", "Action “cancel”"] and step("Action “cancel”") == 0,
          f"the funnel lists every button in the message's order, the untapped one at 0: {steps}")
    check(console.text("#message-state") == "completed", "the message completed")
    Select(d.find_element(By.ID, "state-filter")).select_by_value("action")
    console.until("the delivery log filters by state", lambda: len(d.find_elements(By.CSS_SELECTOR, ".deliveries tbody tr")) == 1)
    Select(d.find_element(By.ID, "state-filter")).select_by_value("")
    console.until("the delivery log lists every delivery", lambda: len(d.find_elements(By.CSS_SELECTOR, ".deliveries tbody tr")) == 3)
    console.until("the French phone got the French variant", lambda: console.texts(".deliveries .variant") == ["· fr"])
    rate = lambda label: d.execute_script("const e = [...document.querySelectorAll('[data-step]')].find((v) => v.dataset.step === arguments[0]);"
                                          "return e && e.querySelector('.rate') ? e.querySelector('.rate').textContent : ''", label)
    console.until("the funnel gives rates", lambda: rate("Sent") == "100% of the audience" and rate("Rendered") == "100% of sent"
                  and rate("Action “track”") == "33% of rendered" and rate("Opened").endswith("of rendered"))
    check(console.text(".composed .composed-title") == HOSTILE and console.text(".composed .composed-body") == "Parcel 4242 arrives Thursday.",
          "the message is shown as composed, its title as text")
    check([t.split(" (")[0] for t in console.texts(".composed-buttons li")] == ["Track parcel", "Cancel order"], "the message's buttons are shown")
    check(console.text("#message-audience").startswith("Everyone: 3 devices"), "the audience is said in words")
    names = lambda: console.texts(".deliveries tbody td:first-child a")
    console.until("each device is named by its user and locale, not an ID", lambda: sorted(t.split(" · ")[0] for t in names()) ==
                  ["Anna's iPhone", "Ben's iPhone", "Chloé's Pixel"] and "Chloé's Pixel · fr-FR" in names())
    check("APNs credentials are failing" in console.text(".message-warnings"), "the send's warnings show on the message's page")
    check(console.text(".waiting li strong") == "iOS: 2 waiting" and "InvalidProviderToken" in console.text(".waiting"),
          "the deliveries waiting for credentials are counted with their reason")
    d.execute_script("window.__stubs = []")
    labelled(console, "message")
    console.headings_unique("message")
    times = console.texts(".deliveries time")
    check(times and all(re.search(r" (UTC|GMT([+-]\d+(:\d\d)?)?|[A-Z]{3,5})$", t) for t in times), f"every time says its zone: {times[:2]}")
    console.shot("message")

    # The messages list: newest first, with its funnel.
    d.get(console.url + "#/messages")
    console.until("the messages list shows the new message first with its counts",
                  lambda: console.text("table.messages tbody tr th a") == HOSTILE)
    first_row = "table.messages tbody tr:first-child td"
    console.until("the list's funnel counts are there", lambda: console.texts(first_row + " .value", "textContent")[:3] == ["3", "0", "3"])
    console.until("the list gives rates", lambda: console.texts(first_row + " .rate", "textContent")[:3] == ["100%", "0%", "100%"])
    check(console.texts(first_row)[1] == "Everyone (3)", "the list says the audience in words")
    check(len(d.find_elements(By.CSS_SELECTOR, "table.messages tbody tr")) == 2, "both messages are listed")
    console.type_into("#message-search", "__pwned")
    console.until("the search keeps the matching message", lambda: console.texts("table.messages tbody tr th a") == [HOSTILE])
    console.type_into("#message-search", "no such words")
    console.until("a search that matches nothing says so", lambda: not console.texts("table.messages tbody tr") and console.shown("#no-match"))
    d.find_element(By.ID, "message-search").clear()
    d.execute_script("document.getElementById('message-search').dispatchEvent(new Event('input'))")
    console.until("clearing the search lists both again", lambda: len(console.texts("table.messages tbody tr")) == 2)
    console.headings_unique("messages")
    console.shot("messages")

    # Devices: find Dev's old iPhone by external user ID; its log says why nothing was shown.
    d.get(console.url + "#/devices")
    query = console.find('input[name="q"]')
    query.send_keys("Dev's old iPhone")
    query.send_keys(Keys.ENTER)
    console.until("the device is found by external user ID", lambda: len(d.find_elements(By.CSS_SELECTOR, "table.devices tbody tr")) == 1)
    console.shot("devices")
    d.find_element(By.CSS_SELECTOR, "table.devices tbody tr a").click()
    console.until("the device's log explains why nothing was shown", lambda: "never shown" in console.text(".why") and "Unregistered" in console.text(".why"))
    # Chloé's Pixel, found by token prefix: rendered with both buttons, from its render report.
    d.get(console.url + "#/devices")
    Select(console.find('select[name="by"]')).select_by_value("tokenPrefix")
    query = console.find('input[name="q"]')
    query.send_keys("fcm-demo")
    query.send_keys(Keys.ENTER)
    console.until("the device is found by token prefix", lambda: len(d.find_elements(By.CSS_SELECTOR, "table.devices tbody tr")) == 1)
    d.find_element(By.CSS_SELECTOR, "table.devices tbody tr a").click()
    console.until("the device's log shows what it drew", lambda: "rendered with 2 buttons (track, cancel) and the image" in console.text(".device-log"))
    check(console.text(".device-log .delivery h3").startswith("Commande expédiée (fr)"), "the device's log names the variant it was sent")
    check(re.search(r"Platform\s+Android", console.text(".facts")), "the platform is named as people say it")
    labelled(console, "device")
    console.headings_unique("device")
    console.shot("device")
    # A delivery the phone has not reported drawing: not a problem within the grace period (sent
    # two seconds ago), said in red after it (sent an hour ago). Stubbed: the demo's phones report.
    device_hash = d.execute_script("return location.hash")
    for ago, pending in ((2, True), (3600, False)):
        sent = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - ago))
        d.execute_script("window.__stubs = []")
        console.stub("GET", r"/v1/devices/[^/]+/deliveries", ["items", 0, "state"], "sent")
        console.stub("GET", r"/v1/devices/[^/]+/deliveries", ["items", 0, "history"], [{"event": "sent", "at": sent}])
        d.execute_script("location.hash = '#/devices'")
        console.find('input[name="q"]')
        d.execute_script("location.hash = arguments[0]", device_hash)
        if pending:
            console.until("a delivery sent two seconds ago waits for its report, not in red",
                          lambda: "waiting for the phone to report drawing it" in console.text(".device-log .pending")
                          and "has not reported" not in console.text(".device-log"))
        else:
            console.until("a delivery sent an hour ago without a report is said in red",
                          lambda: "has not reported drawing it" in console.text(".device-log .why") and not console.shown(".device-log .pending"))
    d.execute_script("window.__stubs = []")

    # Send at a time, then cancel it from its page before it goes.
    d.get(console.url + "#/compose")
    console.field("message.title").send_keys("Tomorrow's reminder")
    console.unfold("#more-delivery")
    later = console.field("sendAt")
    d.execute_script(
        "const t = new Date(Date.now() + 86400000); t.setSeconds(0, 0);"
        "arguments[0].value = new Date(t - t.getTimezoneOffset() * 60000).toISOString().slice(0, 16);"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", later)
    console.field("ttl").send_keys("3600")
    console.send_confirmed("to everyone: 3 devices now (counted now; it is sent later)?")
    console.until("a message sent at a time is scheduled", lambda: console.text("#message-state") == "scheduled")
    d.find_element(By.XPATH, "//button[text()='Cancel the message']").click()
    console.answer_confirm("Cancel “Tomorrow's reminder”?", accept=False)
    time.sleep(0.5)
    check(console.text("#message-state") == "scheduled", "a dismissed cancel leaves the message scheduled")
    d.find_element(By.XPATH, "//button[text()='Cancel the message']").click()
    console.answer_confirm("Cancel “Tomorrow's reminder”?")
    console.until("cancelling it from its page works", lambda: console.text("#message-state") == "cancelled")
    check(not d.find_element(By.XPATH, "//button[text()='Cancel the message']").is_displayed(), "a cancelled message offers no cancel")

    # Each device at its own local time, at most so many a minute: the message's page says what
    # paces it and how many deliveries wait for their moment; cancel stops them.
    d.get(console.url + "#/compose")
    console.field("message.title").send_keys("Good morning")
    console.unfold("#more-delivery")
    in_two_hours = time.strftime("%H:%M", time.gmtime(time.time() + 7200))  # devices without a zone follow UTC
    d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
                     console.field("localTime"), in_two_hours)
    console.field("ratePerMinute").send_keys("600")
    console.send_confirmed("to everyone: 3 devices now (counted now; it is sent later)?")
    console.until("a local-time message shows what paces it", lambda: f"{in_two_hours} on each device's clock" in console.text("#message-local-time")
                  and "at most 600 a minute" in console.text(".summary"))
    console.until("its page counts the deliveries waiting for their moment", lambda: console.text("#message-waiting").startswith(("1 ", "2 ", "3 ", "4 ", "5 "))
                  and "the last at" in console.text("#message-waiting"))
    console.until("the log says when and why each is due", lambda: "scheduled for" in console.text(".log") and "(the device has no time zone)" in console.text(".log"))
    d.find_element(By.XPATH, "//button[text()='Cancel the message']").click()
    console.answer_confirm("Cancel “Good morning”?")
    console.until("cancelling it stops the deliveries waiting", lambda: console.text("#message-state") == "cancelled" and console.text("#message-waiting").startswith("0 "))

    # Apps, with the admin key: create one (keys shown once), require identity verification.
    console.sign_out()
    console.sign_in(keys["admin"])
    console.until("the apps are listed", lambda: "Demo Shop" in console.texts(".app h3"))
    console.type_into('[data-field="name"] input', "Browser <b>test</b> app", Keys.ENTER)
    console.until("a new app's keys are shown once", lambda: "nb_server_" in console.text(".secret") and "nb_client_" in console.text(".secret"))
    created_keys = {"server": d.find_elements(By.CSS_SELECTOR, ".secret code")[0].text}
    # Each key has a copy button that puts exactly the key on the clipboard.
    d.execute_cdp_cmd("Browser.grantPermissions", {"origin": console.url.split("/console")[0], "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    check(console.texts(".secret button.copy") == ["Copy", "Copy"], "both new keys have a copy button")
    d.find_elements(By.CSS_SELECTOR, ".secret button.copy")[0].click()
    console.until("the copy button says it copied", lambda: console.texts(".secret button.copy")[0] == "Copied")
    clipboard = d.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('refused: ' + e))")
    check(clipboard == created_keys["server"], f"the clipboard holds the server key: {clipboard[:20]}")
    console.until("the new app is listed with its name as text", lambda: "Browser <b>test</b> app" in console.texts(".app h3"))
    check("Demo Shop" in console.texts(".app h3"), "the demo app is listed")
    check("no APNs or FCM credentials" in d.find_elements(By.CSS_SELECTOR, ".app")[-1].text, "the new app shows it has no credentials")
    box = d.find_elements(By.CSS_SELECTOR, ".app")[-1].find_element(By.CSS_SELECTOR, 'input[type="checkbox"]')
    check(box.is_selected(), "the new app requires identity verification")
    box.click()
    console.until("identity verification is turned off", lambda: "no longer required" in d.find_element(By.ID, "status").get_attribute("textContent"))
    # Credentials: a wrong key ID is named next to its field; then APNs (a .p8 file) and FCM (the
    # service account JSON) are stored and shown as set.
    card = d.find_elements(By.CSS_SELECTOR, ".app")[-1]
    card.find_element(By.CSS_SELECTOR, "details summary").click()
    apns = card.find_element(By.CSS_SELECTOR, "form.credentials")
    p8 = os.path.join(tempfile.mkdtemp(), "AuthKey_TEST.p8")
    with open(p8, "wb") as handle:
        handle.write(ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    apns.find_element(By.CSS_SELECTOR, '[data-field="keyId"] input').send_keys("SHORT")
    apns.find_element(By.CSS_SELECTOR, '[data-field="teamId"] input').send_keys("TEAM123456")
    apns.find_element(By.CSS_SELECTOR, '[data-field="bundleId"] input').send_keys("com.example.shop")
    # Development builds: the sandbox.
    Select(apns.find_element(By.CSS_SELECTOR, '[data-field="environment"] select')).select_by_visible_text("Development (sandbox)")
    apns.find_element(By.CSS_SELECTOR, '[data-field="privateKey"] input').send_keys(os.path.abspath(p8))
    apns.find_element(By.XPATH, ".//button[text()='Upload APNs credentials']").click()
    console.until("a wrong APNs key ID is named next to its field", lambda: "10-character key ID" in apns.find_element(By.CSS_SELECTOR, '[data-field="keyId"] .error').text)
    key_id = apns.find_element(By.CSS_SELECTOR, '[data-field="keyId"] input')
    key_id.clear()
    key_id.send_keys("KEY1234567")
    apns.find_element(By.XPATH, ".//button[text()='Upload APNs credentials']").click()
    apns_summary = '.app:last-child .credential[data-provider="apns"]'
    console.until("the APNs credentials are shown as set, in words", lambda: re.search(r"Key ID\s+KEY1234567", console.text(apns_summary)))
    check("Development (sandbox)" in console.text(apns_summary), "the environment chosen is shown back: development (sandbox)")
    check("keyId" not in console.text(apns_summary) and not re.search(r"\d{4}-\d\d-\d\dT", console.text(apns_summary)),
          "no camelCase field names or ISO timestamps in the summary")
    # The demo's simulated phones need no credentials: nothing is tested, and "Test now" says why.
    check("Not tested" in console.text(apns_summary + " .test"), f"the demo tests no credentials: {console.text(apns_summary)}")
    d.find_element(By.CSS_SELECTOR, apns_summary + " .credential-test button").click()
    console.until("Test now answers that there is nothing to test", lambda: "nothing to test" in console.text(apns_summary + " .test"))
    app_id = d.find_elements(By.CSS_SELECTOR, ".app")[-1].find_element(By.CSS_SELECTOR, ".facts code").text
    read_back = json.load(urllib.request.urlopen(urllib.request.Request(f"{console.url.split('/console')[0]}/v1/apps/{app_id}",
                                                                        headers={"Authorization": "Bearer " + keys["admin"]})))
    check(read_back["credentials"]["apns"]["environment"] in ("sandbox", "development"), f"the API stored the sandbox: {read_back['credentials']['apns']}")
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    account = json.dumps({"type": "service_account", "project_id": "demo-shop", "client_email": "push@demo-shop.iam.gserviceaccount.com",
                          "private_key": rsa_key, "token_uri": "https://oauth2.googleapis.com/token"})
    card = d.find_elements(By.CSS_SELECTOR, ".app")[-1]
    if not card.find_element(By.CSS_SELECTOR, "details").get_attribute("open"):
        card.find_element(By.CSS_SELECTOR, "details summary").click()
    fcm = card.find_elements(By.CSS_SELECTOR, "form.credentials")[1]
    d.execute_script("arguments[0].value = arguments[1]", fcm.find_element(By.CSS_SELECTOR, "textarea"), account)
    fcm.find_element(By.XPATH, ".//button[text()='Upload FCM credentials']").click()
    console.until("the FCM credentials are shown as set", lambda: re.search(r"Service account\s+push@demo-shop.iam.gserviceaccount.com",
                                                                           console.text('.app:last-child .credential[data-provider="fcm"]')))
    check("no APNs or FCM credentials" not in d.find_elements(By.CSS_SELECTOR, ".app")[-1].text, "the app no longer says it has no credentials")
    check(rsa_key.splitlines()[1] not in d.find_element(By.TAG_NAME, "body").text, "no private key is shown back")

    # APNs by certificate: the .p12 file goes in base64 with its password, without the token's
    # fields. A server that takes certificates shows it; one that does not says so at the field.
    card = d.find_elements(By.CSS_SELECTOR, ".app")[-1]
    if not card.find_element(By.CSS_SELECTOR, "details").get_attribute("open"):
        card.find_element(By.CSS_SELECTOR, "details summary").click()
    apns = card.find_element(By.CSS_SELECTOR, "form.credentials")
    Select(apns.find_element(By.CSS_SELECTOR, '[data-field="authentication"] select')).select_by_visible_text("Certificate (.p12)")
    check(not apns.find_element(By.CSS_SELECTOR, '[data-field="keyId"]').is_displayed()
          and apns.find_element(By.CSS_SELECTOR, '[data-field="pkcs12"]').is_displayed(), "a certificate asks for its file and password, not a key ID")
    p12 = os.path.join(tempfile.mkdtemp(), "push.p12")
    with open(p12, "wb") as handle:
        handle.write(certificate_p12("com.example.shop", b"secret"))
    apns.find_element(By.CSS_SELECTOR, '[data-field="bundleId"] input').clear()
    apns.find_element(By.CSS_SELECTOR, '[data-field="bundleId"] input').send_keys("com.example.shop")
    apns.find_element(By.CSS_SELECTOR, '[data-field="pkcs12"] input').send_keys(p12)
    apns.find_element(By.CSS_SELECTOR, '[data-field="pkcs12Password"] input').send_keys("secret")
    Select(apns.find_element(By.CSS_SELECTOR, '[data-field="environment"] select')).select_by_visible_text("Development (sandbox)")
    console.record()
    apns.find_element(By.XPATH, ".//button[text()='Upload APNs credentials']").click()
    console.until("the certificate is sent", lambda: console.requests("PUT", "/credentials/apns"))
    sent = json.loads(console.requests("PUT", "/credentials/apns")[0]["body"])
    with open(p12, "rb") as handle:
        check(sent.get("pkcs12") == base64.b64encode(handle.read()).decode() and sent.get("pkcs12Password") == "secret"
              and "keyId" not in sent and "privateKey" not in sent and sent.get("environment") == "sandbox", f"the certificate is sent as the API takes it: {sorted(sent)}")
    console.until("the server's answer to a certificate is shown", lambda: re.search(r"Authentication\s+Certificate", console.text(apns_summary))
                  or any(console.texts(".app:last-child form.credentials:first-of-type .error")))

    # Rotating a key shows the new one once.
    card = d.find_elements(By.CSS_SELECTOR, ".app")[-1]
    card.find_element(By.XPATH, ".//button[text()='Rotate the client key']").click()
    WebDriverWait(d, 5).until(EC.alert_is_present())
    d.switch_to.alert.accept()
    console.until("a rotated key is shown once", lambda: "The new client key" in console.text(".secret") and "nb_client_" in console.text(".secret"))
    labelled(console, "apps")
    # Their health (as GET /v1/apps gives it; stubbed where this server does not report it):
    # failing APNs credentials are a red banner on the app, working FCM ones say when they last worked.
    console.stub("GET", r"/v1/apps$", ["items", -1, "credentials", "apns", "health"],
                 {"state": "failing", "lastSuccessAt": None, "lastFailureAt": "2026-01-02T03:05:00Z", "lastFailureReason": "InvalidProviderToken"})
    console.stub("GET", r"/v1/apps$", ["items", -1, "credentials", "fcm", "health"],
                 {"state": "ok", "lastSuccessAt": "2026-01-02T03:00:00Z", "lastFailureAt": None, "lastFailureReason": None})
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 10 * 86400))
    console.stub("GET", r"/v1/apps$", ["items", 0, "credentials", "apns"], {
        "authentication": "certificate", "bundleId": "com.example.shop", "environment": "production", "expiresAt": expires, "expiresSoon": True,
        "subject": "Apple Push Services: com.example.shop", "updatedAt": "2026-01-02T03:04:05Z"})
    d.execute_script("location.hash = '#/compose'")
    d.execute_script("location.hash = '#/apps'")
    console.until("failing credentials are a red banner on the app", lambda: "APNs credentials are failing: InvalidProviderToken" in console.text(".app:last-child .banner"))
    check(console.text('.app:last-child [data-provider="apns"] .health.failing').startswith("Failing: InvalidProviderToken"), "the APNs health says why it fails")
    check(console.text('.app:last-child [data-provider="fcm"] .health.ok').startswith("Working: last accepted"), "the FCM health says when it last worked")
    check("The APNs certificate expires" in console.text(".app:first-child .banner"), "a certificate expiring within 30 days is a banner on its app")
    check(re.search(r"Authentication\s+Certificate", console.text('.app:first-child .credential[data-provider="apns"]'))
          and "expiresSoon" not in console.text(".app:first-child"), "a certificate's summary is in words")
    d.execute_script("document.querySelector('.app:last-child').scrollIntoView()")
    console.shot("apps", top=False)
    d.refresh()
    console.until("a refreshed page never shows the keys again", lambda: len(d.find_elements(By.CSS_SELECTOR, ".app")) == 2 and not d.find_elements(By.CSS_SELECTOR, ".secret dd"))

    # Signed in with the new app's server key, then that key is rotated elsewhere: the console
    # signs out and says why.
    app_id = d.find_elements(By.CSS_SELECTOR, ".app")[-1].find_element(By.CSS_SELECTOR, ".facts code").text
    console.sign_out()
    created = created_keys["server"]
    console.sign_in(created)
    console.find('[data-field="message.title"] input')
    request = urllib.request.Request(f"{console.url.split('/console')[0]}/v1/apps/{app_id}/keys/server/rotate", method="POST",
                                     headers={"Authorization": "Bearer " + keys["admin"]})
    check(urllib.request.urlopen(request).status == 200, "the key is rotated through the API")
    d.get(console.url + "#/messages")
    console.until("a rotated key signs the console out, saying why", lambda: "no longer accepts this key" in console.text(".notice")
                  and d.execute_script("return sessionStorage.getItem('notibase.key')") is None)
    # The reason outlives a page change: the page's own request may sign it out before the
    # next link is followed (under load the compose page's audience count did, and the reason
    # was gone from the page the link drew).
    d.get(console.url + "#/devices")
    console.until("the reason stays after a page change", lambda: "no longer accepts this key" in console.text(".notice"))

    check(not console.shown("#sign-out"), "signed out by the server, Sign out is not offered")

    # Deleting an app takes its name typed out.
    console.sign_in(keys["admin"])
    console.until("both apps are listed", lambda: len(console.texts(".app h3")) == 2)
    check("no longer accepts" not in console.text(".notice"), "signing in again drops the reason")
    card = d.find_elements(By.CSS_SELECTOR, ".app")[-1]
    card.find_element(By.CSS_SELECTOR, ".danger-zone summary").click()
    confirm = card.find_element(By.CSS_SELECTOR, ".delete-app input")
    delete = card.find_element(By.CSS_SELECTOR, ".delete-app button")
    check(delete.text == "Delete Browser <b>test</b> app" and not delete.is_enabled(), "Delete names the app and waits for its name")
    confirm.send_keys("Browser test app")
    check(not delete.is_enabled(), "a name that is not the app's does not delete it")
    confirm.clear()
    confirm.send_keys("Browser <b>test</b> app")
    check(delete.is_enabled(), "the app's name typed out allows deleting it")
    labelled(console, "apps")
    console.headings_unique("apps")
    d.execute_script("arguments[0].scrollIntoView()", card)
    console.shot("apps-delete", top=False)
    delete.click()
    console.until("the deleted app is gone from the list", lambda: console.texts(".app h3") == ["Demo Shop"])
    gone = urllib.request.Request(f"{console.url.split('/console')[0]}/v1/apps/{app_id}", headers={"Authorization": "Bearer " + keys["admin"]})
    try:
        urllib.request.urlopen(gone)
        check(False, "the deleted app is gone from the API")
    except urllib.error.HTTPError as error:
        check(error.code == 404, "the deleted app is gone from the API")

    # Webhooks, against a server of its own; signed out of the demo's console meanwhile.
    run_webhooks(console, binary)
    # Lists longer than a page, against a server of their own.
    run_long_lists(console, binary)

    # A phone-sized screen.
    console.sign_out()
    check(not console.shown("#sign-out"), "signed out by hand, Sign out is not offered")
    console.sign_in(keys["server"])
    console.find('[data-field="message.title"] input')
    d.set_window_size(390, 844)
    console.field("message.title").send_keys("On a phone")
    console.until("the preview works on a phone-sized screen", lambda: console.text(".ios-banner .ios-title") == "On a phone")
    d.execute_script("document.querySelector('.preview-side').scrollIntoView()")  # on a phone the preview follows the form
    console.shot("compose-phone", top=False)

    # Nothing the console did broke its Content-Security-Policy.
    violations = [entry["message"] for entry in d.get_log("browser") if "Content Security Policy" in entry["message"] or "Refused" in entry["message"]]
    check(not violations, "no Content-Security-Policy violation: " + "; ".join(violations))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--notibase", required=True)
    parser.add_argument("--screenshots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    demo, keys = start_demo(arguments.notibase)
    driver = None
    try:
        driver = browser()
        run(Console(driver, keys["url"], arguments.screenshots), keys, arguments.notibase)
        print(f"console browser test: {len(checks)} checks passed", flush=True)
        return 0
    except AssertionError:
        print(f"console browser test: failed after {len(checks) - 1} checks", flush=True)
        if driver:
            try:
                driver.save_screenshot(os.path.join(arguments.screenshots, "failure.png"))
                for entry in driver.get_log("browser"):
                    print("browser: " + entry["message"], flush=True)
            except Exception:
                pass
        return 1
    finally:
        if driver:
            driver.quit()
        stop(demo)


if __name__ == "__main__":
    sys.exit(main())
