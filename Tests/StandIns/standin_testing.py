"""What the two stand-ins' suites share (test_app_store_connect.py, test_app_store_server.py; a TEST module).

The demo key (keys-example/) and its tokens, a stand-in as a subprocess with a keep-alive HTTP/1.1 client and
its control API (`StandInProcess`), the test case that starts one stand-in per class and resets it before each
test (`StandInTestCase`), and the check that unusable command lines exit 2 (`assert_each_exits_2`). What each
suite checks of its stand-in's answers (Apple's response schemas, error bodies) stays in the suite.
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import jwt

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PRIVATE_KEY = os.path.join(ROOT, "keys-example", "SubscriptionKey_DEMOKEY123.p8")
PUBLIC_KEY = os.path.join(ROOT, "keys-example", "SubscriptionKey_DEMOKEY123.pub.pem")
KEY_ID = "DEMOKEY123"
ISSUER = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"

with open(PRIVATE_KEY, "rb") as _handle:
    DEMO_PRIVATE = _handle.read()


def demo_token(claims=None, header=None, key=DEMO_PRIVATE, algorithm="ES256", drop=(), lifetime=600):
    """A token of the demo key (team key: `iss`, `iat` now, `exp` after `lifetime` s, `aud`), with members
    replaced (`claims`, `header`) or dropped as a test needs."""
    now = int(time.time())
    payload = {"iss": ISSUER, "iat": now, "exp": now + lifetime, "aud": "appstoreconnect-v1"}
    payload.update(claims or {})
    for name in drop:
        payload.pop(name, None)
    headers = {"kid": KEY_ID, "typ": "JWT"}
    headers.update(header or {})
    return jwt.encode(payload, key, algorithm=algorithm, headers=headers)


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"<{self.status} {self.body[:300]!r}>"


class StandInProcess:
    """One stand-in process (`python script arguments…`) and a keep-alive HTTP/1.1 connection to it.

    A suite's subclass builds the command line, sets `token` (sent by default), and may set `answer_class`,
    `raw_control_paths` (control answers returned as bytes, not JSON) and `check_answer` (every API answer).
    """

    answer_class = Answer
    raw_control_paths = ()

    def __init__(self, script, arguments):
        self.connection = None
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, script, *arguments], stdout=subprocess.PIPE,
                                        stderr=self.stderr)
        self.first_line = self.process.stdout.readline().decode()
        match = re.fullmatch(r"listening on (http://127\.0\.0\.1:(\d+))\n", self.first_line)
        if not match:
            self.stop()
            self.stderr.seek(0)
            raise AssertionError(f"the stand-in did not start: {self.first_line!r} {self.stderr.read().decode()}")
        self.url, self.port = match.group(1), int(match.group(2))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.connection:
            self.connection.close()
        self.process.stdout.close()
        self.stderr.close()

    def request(self, method, path, body=None, token="default", headers=None, raw=None, *, content_type=None,
                timeout=30, fresh=False, validate=True):
        """One request on the keep-alive connection (a fresh one with fresh=True). `body` is sent as JSON,
        `raw` as it is; `content_type` replaces the Content-Type. API answers go through `check_answer` unless
        validate=False."""
        sent = dict(headers or {})
        if token == "default":
            token = self.token
        if token is not None:
            sent.setdefault("Authorization", f"Bearer {token}")
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if content_type:
            sent["Content-Type"] = content_type
        if fresh:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        else:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            connection = self.connection
            connection.timeout = timeout
            if connection.sock is not None:
                connection.sock.settimeout(timeout)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            answer = self.answer_class(response.status, response.headers, response.read())
        except BaseException:
            connection.close()
            if not fresh:
                self.connection = None
            raise
        if fresh:
            connection.close()
        if validate and not path.startswith("/_standin/"):
            self.check_answer(method, path, answer)
        return answer

    def raw_exchange(self, data, timeout=5):
        """Sends `data` (a whole request, as bytes) on a fresh connection and reads one answer: an
        `answer_class`; TimeoutError when none comes within `timeout` s, RemoteDisconnected when the stand-in
        closes the connection unanswered."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as connection:
            connection.sendall(data)
            response = http.client.HTTPResponse(connection)
            response.begin()
            return self.answer_class(response.status, response.headers, response.read())

    def check_answer(self, method, path, answer):
        """Raises AssertionError when an API answer is not what Apple documents (the suite's own check)."""

    def control(self, method, path, body=None):
        """A control request (no token) that must answer 200: its JSON (bytes for `raw_control_paths`)."""
        answer = self.request(method, path, body=body, token=None)
        if answer.status != 200:
            raise AssertionError(f"{method} {path}: {answer}")
        return answer.body if path in self.raw_control_paths else answer.json

    def state(self):
        return self.control("GET", "/_standin/state")

    def configure(self, **update):
        return self.control("POST", "/_standin/config", update)

    def faults(self, setup):
        return self.control("POST", "/_standin/faults", setup)

    def reset(self):
        self.control("POST", "/_standin/reset", {})


class StandInTestCase(unittest.TestCase):
    """One stand-in per test class (`standin_class(*extra, **options)`), reset before each test; `self.s`."""

    standin_class = None
    extra = ()
    options = {}

    @classmethod
    def setUpClass(cls):
        cls.standin = cls.standin_class(*cls.extra, **cls.options)

    @classmethod
    def tearDownClass(cls):
        cls.standin.stop()

    def setUp(self):
        self.standin.reset()
        self.s = self.standin


def assert_each_exits_2(test, cases):
    """Each command line of `cases` ({label: arguments}) exits 2 and prints nothing to stdout."""
    for label, arguments in cases.items():
        with test.subTest(label):
            result = subprocess.run(arguments, capture_output=True, timeout=60)
            test.assertEqual(result.returncode, 2, result.stderr)
            test.assertEqual(result.stdout, b"")
