"""What the two stand-ins share (a TEST TOOL module; see README.md next to this file).

`app_store_connect.py` (App Store Connect API) and `app_store_server.py` (App Store Server API, Retention
Messaging) are different APIs with different error bodies, token claims and rules, which each keeps to itself.
This module holds the plumbing that is the same in both, so that it is written and fixed once:

- bearer tokens: the `Authorization` header, the cache of verified tokens, the JWS header and signature and
  the audience (`BearerTokenVerifier`), and the integer `iat`/`exp` checks (the functions `require_seconds`
  and `check_lifetime`); each stand-in checks its own claims with them;
- strict JSON (no repeated members, no NaN or Infinity) and the media type of a request;
- the fault setup of `POST /_standin/faults` (`Faults`) and how a picked fault changes a request
  (`StandInApp._answer_with_fault`; each stand-in words the error answers of a fault itself);
- the control API's common operations, the request and token counters (`StandInApp`);
- the HTTP/1.1 server (`Handler`, `Server`) and the start-up: `listening on http://127.0.0.1:PORT`, then
  serving until SIGTERM or SIGINT (`serve`), exit 2 on unusable input (`fail`).

The stand-ins import it from their own folder (each puts that folder first on `sys.path`), so they run by path
from any current directory.
"""

import email.utils
import hashlib
import json
import random
import re
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import jwt
from cryptography.hazmat.primitives import serialization

AUDIENCE = "appstoreconnect-v1"
TOKEN_SKEW_SECONDS = 60
FAULT_KINDS = ("rate-limit", "rate-limit-no-retry-after", "server-error", "unavailable", "drop-before",
               "drop-after", "slow", "slow-before", "hold-before")
# Kinds a random setup may pick: not `hold-before`, whose request waits for `POST /_standin/release`.
RANDOM_FAULT_KINDS = tuple(kind for kind in FAULT_KINDS if kind != "hold-before")
# The longest a `hold-before` request waits for `POST /_standin/release`: a test that forgets to release it
# does not hang its client for ever.
HOLD_LIMIT_SECONDS = 600
# The faults that answer (or drop) a request without processing it.
UNPROCESSED_FAULTS = ("rate-limit", "rate-limit-no-retry-after", "server-error", "unavailable", "drop-before")


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

class TokenError(Exception):
    def __init__(self, reason, detail):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class BearerTokenVerifier:
    """ES256 bearer tokens of one key (docs/formats.md §5), checked strictly; verified tokens are cached by string.

    A subclass defines `_verify_new(token, now)`: `_signed_claims(token)` and then the claims its API documents;
    what it returns is cached and handed to its `verify` by `_cached`.
    """

    CACHE_LIMIT = 10_000

    def __init__(self, key, key_id, key_name):
        self.key = key              # the public key object (load_public_key)
        self.key_id = key_id
        self.key_name = key_name    # how the signature error names the key: "configured", "registered"
        self.cache = {}
        self.lock = threading.Lock()

    def _cached(self, authorization, now):
        """What `_verify_new` made of the request's bearer token (verified once); TokenError otherwise."""
        if authorization is None:
            raise TokenError("missing", "no Authorization header")
        if not authorization.startswith("Bearer ") or len(authorization) <= 7:
            raise TokenError("not-bearer", "the Authorization header is not 'Bearer <token>'")
        token = authorization[7:]
        with self.lock:
            cached = self.cache.get(token)
        if cached is None:
            cached = self._verify_new(token, now)
            with self.lock:
                if len(self.cache) >= self.CACHE_LIMIT:
                    self.cache.clear()
                self.cache[token] = cached
        return cached

    def _verify_new(self, token, now):
        raise NotImplementedError

    def _signed_claims(self, token):
        """(header, claims) of a compact JWS with header alg ES256, this key id and typ JWT, signed by this key,
        for the audience `appstoreconnect-v1`; TokenError otherwise."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as error:
            raise TokenError("malformed", f"the token is not a compact JWS: {error}")
        if header.get("alg") != "ES256":
            raise TokenError("alg", f"header alg is {header.get('alg')!r}, expected 'ES256'")
        if header.get("kid") != self.key_id:
            raise TokenError("kid", f"header kid is {header.get('kid')!r}, expected the key id {self.key_id!r}")
        if header.get("typ") != "JWT":
            raise TokenError("typ", f"header typ is {header.get('typ')!r}, expected 'JWT'")
        try:
            claims = jwt.decode(token, self.key, algorithms=["ES256"],
                                options={"verify_aud": False, "verify_exp": False, "verify_iat": False,
                                         "verify_nbf": False, "verify_iss": False})
        except jwt.InvalidSignatureError:
            raise TokenError("signature", f"the signature does not verify with the {self.key_name} public key")
        except jwt.PyJWTError as error:
            raise TokenError("malformed", f"the token cannot be decoded: {error}")
        if claims.get("aud") != AUDIENCE:
            raise TokenError("aud", f"aud is {claims.get('aud')!r}, expected {AUDIENCE!r}")
        return header, claims


def require_seconds(name, value):
    """`iat` or `exp` must be an integer (not a boolean); TokenError(name) otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TokenError(name, f"{name} is {value!r}, expected an integer (seconds since 1970)")


def check_lifetime(iat, exp, now, max_lifetime):
    """`iat` at most TOKEN_SKEW_SECONDS in the future, `exp` after `iat` and at most `max_lifetime` after it."""
    if iat > now + TOKEN_SKEW_SECONDS:
        raise TokenError("iat-future", f"iat {iat} is more than {TOKEN_SKEW_SECONDS} s in the future")
    if exp <= iat:
        raise TokenError("lifetime", f"exp {exp} is not after iat {iat}")
    if exp - iat > max_lifetime:
        raise TokenError("lifetime", f"exp - iat is {exp - iat} s, more than {max_lifetime}")


# ---------------------------------------------------------------------------------------------
# Request bodies
# ---------------------------------------------------------------------------------------------

def strict_json_loads(data):
    """UTF-8 JSON without repeated members or NaN/Infinity; UnicodeDecodeError or ValueError otherwise."""
    def no_duplicates(pairs):
        result = {}
        for key, value in pairs:
            if key in result:
                raise ValueError(f"the member {key!r} appears twice in one object")
            result[key] = value
        return result

    def no_constants(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(data.decode("utf-8"), object_pairs_hook=no_duplicates, parse_constant=no_constants)


def media_type(headers):
    """The request's Content-Type without parameters, in lower case ("" when there is none)."""
    return (headers.get("Content-Type") or "").split(";")[0].strip().lower()


# ---------------------------------------------------------------------------------------------
# Faults
# ---------------------------------------------------------------------------------------------

class Faults:
    """The scripted and random faults of `POST /_standin/faults`."""

    def __init__(self, setup=None):
        setup = setup or {}
        self.setup = setup
        self.script = []
        script = setup.get("script", [])
        if not isinstance(script, list):
            raise ValueError("script must be an array of objects")
        for index, entry in enumerate(script):
            if not isinstance(entry, dict):
                raise ValueError(f"script[{index}] must be an object")
            unknown = set(entry) - {"method", "pathPrefix", "skip", "times", "fault", "retryAfter"}
            if unknown:
                raise ValueError(f"script[{index}] has unknown members {sorted(unknown)}")
            if entry.get("fault") not in FAULT_KINDS:
                raise ValueError(f"script[{index}].fault is {entry.get('fault')!r}; expected one of {FAULT_KINDS}")
            for name in ("skip", "times", "retryAfter"):
                if name in entry and not _is_count(entry[name]):
                    raise ValueError(f"script[{index}].{name} must be a non-negative integer")
            for name in ("method", "pathPrefix"):
                if name in entry and not isinstance(entry[name], str):
                    raise ValueError(f"script[{index}].{name} must be a string, not {type(entry[name]).__name__}")
            self.script.append({"method": entry.get("method"), "pathPrefix": entry.get("pathPrefix", "/"),
                                "skip": entry.get("skip", 0), "times": entry.get("times", 1),
                                "fault": entry["fault"], "retryAfter": entry.get("retryAfter", 1),
                                "seen": 0, "fired": 0})
        chance = setup.get("random")
        self.random = None
        if chance is not None:
            if not isinstance(chance, dict):
                raise ValueError("random must be an object")
            unknown = set(chance) - {"seed", "probability", "kinds", "retryAfter"}
            if unknown:
                raise ValueError(f"random has unknown members {sorted(unknown)}")
            kinds = chance.get("kinds", [])
            if not isinstance(kinds, list) or not kinds or any(kind not in RANDOM_FAULT_KINDS for kind in kinds):
                raise ValueError(f"random.kinds must list fault kinds of {RANDOM_FAULT_KINDS}")
            probability = chance.get("probability", 0)
            if not isinstance(probability, (int, float)) or isinstance(probability, bool) or not 0 <= probability <= 1:
                raise ValueError("random.probability must be a number from 0 to 1")
            for name in ("seed", "retryAfter"):
                if name in chance and not _is_count(chance[name]):
                    raise ValueError(f"random.{name} must be a non-negative integer")
            self.random = {"rng": random.Random(chance.get("seed", 0)), "probability": float(probability),
                           "kinds": list(kinds), "retryAfter": chance.get("retryAfter", 1)}

    def pick(self, method, path):
        """The fault for this request as (kind, retryAfter), or None. Call under the state lock. (`_pick_fault`
        adds the release a `hold-before` request waits for.)"""
        chosen = None
        for entry in self.script:
            if entry["method"] not in (None, method) or not path.startswith(entry["pathPrefix"]):
                continue
            entry["seen"] += 1
            if chosen is None and entry["seen"] > entry["skip"] and entry["fired"] < entry["times"]:
                entry["fired"] += 1
                chosen = (entry["fault"], entry["retryAfter"])
        if chosen is None and self.random is not None:
            rng = self.random["rng"]
            if rng.random() < self.random["probability"]:
                chosen = (rng.choice(self.random["kinds"]), self.random["retryAfter"])
        return chosen

    def public(self):
        return {"setup": self.setup,
                "script": [{key: value for key, value in entry.items()} for entry in self.script]}


def _is_count(value):
    """A non-negative integer, not a boolean (JSON `true` is an int to Python)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def relabel_last(log, method, path, note):
    """Appends `; note` to the outcome of the newest entry of `log` for `method path`. Call under the lock."""
    for entry in reversed(log):
        if entry["method"] == method and entry["path"] == path:
            entry["outcome"] += f"; {note}"
            break


# ---------------------------------------------------------------------------------------------
# The application's shared part
# ---------------------------------------------------------------------------------------------

class Reply:
    """What the HTTP layer sends: status, headers, body; `action` is None, "drop" or ("sleep", seconds)."""

    def __init__(self, status, body=b"", content_type=None, headers=None, action=None):
        self.status = status
        self.body = body
        self.headers = dict(headers or {})
        if content_type:
            self.headers["Content-Type"] = content_type
        self.action = action


def check_config_members(update, defaults):
    """A `POST /_standin/config` body must be an object of members `defaults` has; ValueError otherwise."""
    if not isinstance(update, dict):
        raise ValueError("the configuration must be a JSON object")
    unknown = set(update) - set(defaults)
    if unknown:
        raise ValueError(f"unknown configuration members {sorted(unknown)}; expected {sorted(defaults)}")


def slow_seconds(value):
    """The configuration's `slowSeconds`: a number from 0 to 3600, as a float; ValueError otherwise."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 3600:
        raise ValueError("slowSeconds must be a number of seconds from 0 to 3600")
    return float(value)


class StandInApp:
    """What both applications share: the counters, faults, token bookkeeping and the control API.

    A subclass sets `lock`, `config` (with `slowSeconds`) and `verbose`, and defines `state()`, `reset()` (which
    calls `_reset_shared(counters)` under the lock), `configure(update)`, `_handle_api(method, path, query,
    headers, body)` (every request outside `/_standin/`), and for faults `_log_unprocessed(method, path, note)`,
    `_relabel(method, path, note)` and `_fault_reply(kind, retry_after)` (the 429, 500 or 503 in its API's
    format). `serve` sets `base_url` once the port is known.
    """

    CONTROL_GETS = ("/_standin/state", "/_standin/faults")   # a subclass answers more in `_control_get`
    CONTROL_POSTS = ("/_standin/config", "/_standin/faults")  # `_control_post` answers them; and /_standin/reset
    CONTROL_INDENT = None       # JSON indentation of the control answers (the state is always compact)

    @classmethod
    def control_operations(cls):
        """The control operations, as the 404 of another `/_standin/` request lists them."""
        return ", ".join([f"GET {path}" for path in cls.CONTROL_GETS]
                         + [f"POST {path}" for path in (*cls.CONTROL_POSTS, "/_standin/release", "/_standin/reset")])

    def _reset_shared(self, counters):
        """What every stand-in's `reset()` starts from: the counters both keep (`requests`, `tokenFailures`,
        `tokenFailureReasons`, `tokensAccepted`, `faultsInjected`) and then its own `counters`, no accepted
        tokens and no faults. Call under the lock."""
        self.counters = {"requests": {}, "tokenFailures": 0, "tokenFailureReasons": {}, "tokensAccepted": 0,
                         "faultsInjected": {}, **counters}
        self.accepted_tokens = set()    # SHA-256 of each token string that passed verification
        self.faults = Faults()
        self.release_held()

    # -- held requests (the `hold-before` fault) ------------------------------------------------------

    def _take_hold_ticket(self):
        """Counts a request a `hold-before` fault holds from now on; answers the release it waits for. Taken
        when the fault is picked (under the state lock, with the fault counted), so a release or reset that
        comes before the request starts waiting still lets it go."""
        holds = self._holds()
        with holds:
            self.held += 1
            return self.hold_generation

    def _hold(self, ticket):
        """Waits until the release after `ticket` (`POST /_standin/release`, a reset), at most
        HOLD_LIMIT_SECONDS."""
        holds = self._holds()
        with holds:
            released = holds.wait_for(lambda: self.hold_generation != ticket, timeout=HOLD_LIMIT_SECONDS)
            if not released:
                self.held -= 1

    def release_held(self):
        """Lets every request a `hold-before` fault holds go on; answers how many there were."""
        holds = self._holds()
        with holds:
            released, self.held = self.held, 0
            self.hold_generation += 1
            holds.notify_all()
        return released

    def _holds(self):
        # Made on first use: subclasses set up their own state before the first reset.
        if "_hold_condition" not in self.__dict__:
            self.hold_generation, self.held = 0, 0
            self._hold_condition = threading.Condition()
        return self._hold_condition

    def _count(self, name, key=None, amount=1):
        """Adds to a counter; call under the lock."""
        if key is None:
            self.counters[name] += amount
        else:
            table = self.counters[name]
            table[key] = table.get(key, 0) + amount

    def set_faults(self, setup):
        if not isinstance(setup, dict) or set(setup) - {"script", "random"}:
            raise ValueError("the fault setup must be {\"script\": [...], \"random\": {...}}")
        faults = Faults(setup)
        with self.lock:
            self.faults = faults
        return faults.public()

    # -- faults ---------------------------------------------------------------------------------

    def _pick_fault(self, method, path, template, faultable=True):
        """Counts the request under `METHOD template` and picks its fault (none when not `faultable`)."""
        fault = None
        with self.lock:
            self._count("requests", f"{method} {template}")
            if faultable:
                fault = self.faults.pick(method, path)
                if fault:
                    self._count("faultsInjected", fault[0])
                    if fault[0] == "hold-before":
                        fault = (*fault, self._take_hold_ticket())
        return fault

    def _answer_with_fault(self, fault, method, path, process):
        """The reply to a request with its picked `fault` (or None); `process()` processes it and replies.

        `rate-limit`, `rate-limit-no-retry-after`, `server-error`, `unavailable` answer without processing,
        `drop-before` closes the connection unanswered; `slow-before` waits `slowSeconds`, then processes;
        `hold-before` waits for `POST /_standin/release`, then processes; `drop-after` processes and closes
        unanswered; `slow` processes at once and answers after `slowSeconds`.
        """
        kind = fault[0] if fault else None
        if kind in UNPROCESSED_FAULTS:
            self._log_unprocessed(method, path, f"fault {kind}: not processed")
            if kind == "drop-before":
                return Reply(0, action="drop")
            return self._fault_reply(kind, fault[1])
        if kind == "slow-before":
            time.sleep(self.config["slowSeconds"])
        elif kind == "hold-before":
            self._hold(fault[2])
        reply = process()
        if kind == "drop-after":
            self._relabel(method, path, "answer dropped (drop-after)")
            reply.action = "drop"
        elif kind == "slow":
            self._relabel(method, path, "answer delayed (slow)")
            reply.action = ("sleep", self.config["slowSeconds"])
        return reply

    # -- tokens ---------------------------------------------------------------------------------

    def _token_refused(self, method, path, error):
        """Counts a refused token (by its TokenError's reason) and logs it with --verbose."""
        with self.lock:
            self._count("tokenFailures")
            self._count("tokenFailureReasons", error.reason)
        if self.verbose:
            print(f"401 {method} {path}: {error.detail}", file=sys.stderr)

    def _token_accepted(self, authorization):
        """Counts an accepted token once per distinct string (by its SHA-256): True the first time. Call under
        the lock."""
        digest = hashlib.sha256(authorization.encode()).digest()
        if digest in self.accepted_tokens:
            return False
        self.accepted_tokens.add(digest)
        self._count("tokensAccepted")
        return True

    # -- control API ----------------------------------------------------------------------------

    def control(self, method, path, body):
        """`/_standin/...`: no authentication, not counted, not faulted."""
        try:
            if path == "/_standin/state" and method == "GET":
                return self._control_answer(200, self.state(), compact=True)
            if path == "/_standin/reset" and method == "POST":
                self.reset()
                return self._control_answer(200, {"reset": True})
            if path == "/_standin/release" and method == "POST":
                return self._control_answer(200, {"released": self.release_held()})
            if path in self.CONTROL_POSTS and method == "POST":
                try:
                    update = json.loads(body.decode("utf-8") or "{}")
                except (UnicodeDecodeError, ValueError) as error:
                    return self._control_answer(400, {"error": f"the body is not JSON: {error}"})
                return self._control_answer(200, self._control_post(path, update))
            if path == "/_standin/faults" and method == "GET":
                with self.lock:
                    return self._control_answer(200, {"faults": self.faults.public()})
            reply = self._control_get(path) if method == "GET" else None
            if reply is not None:
                return reply
            return self._control_answer(404, {"error": f"no control operation {method} {path}; expected "
                                                       f"{self.control_operations()}"})
        except ValueError as error:
            return self._control_answer(400, {"error": str(error)})

    def _control_post(self, path, update):
        """The answer to `POST path` of CONTROL_POSTS with a JSON body; ValueError for a bad one."""
        if path == "/_standin/config":
            return {"config": self.configure(update)}
        return {"faults": self.set_faults(update)}

    def _control_get(self, path):
        """The reply to another `GET /_standin/...` of the subclass, or None (404)."""
        return None

    def _control_answer(self, status, value, compact=False):
        if compact or self.CONTROL_INDENT is None:
            text = json.dumps(value, separators=(",", ":"))
        else:
            text = json.dumps(value, indent=self.CONTROL_INDENT)
        return Reply(status, text.encode("utf-8"), "application/json")

    # -- HTTP entry point -----------------------------------------------------------------------

    def handle(self, method, target, headers, body):
        """Answers one request (the HTTP layer has read its whole body): `/_standin/` or the API."""
        split = urlsplit(target)
        path, query = split.path, split.query
        if path.startswith("/_standin/"):
            return self.control(method, path, body)
        return self._handle_api(method, path, query, headers, body)


# ---------------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------------

TRUNCATED = object()  # a request body cut off by the end of the connection
# A chunk's size line (RFC 9112 §7.1): hex digits (at most 8 here), optional whitespace and extensions, CRLF
# (or LF alone).
CHUNK_SIZE_LINE = re.compile(rb"([0-9A-Fa-f]{1,8})[ \t]*(?:;[^\r\n]*)?\r?\n")


class Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive: reads each whole request, then writes one answer in a single send.

    A stand-in's subclass sets `server_version` and `max_body_bytes` and defines `unreadable_body_reply(app)`
    (its API's answer to a body it cannot read); `extra_headers(app)` adds header lines after `Server`.
    """

    protocol_version = "HTTP/1.1"
    server_version = "StandIn/1"
    sys_version = ""
    disable_nagle_algorithm = True
    max_body_bytes = 0

    def log_message(self, format, *args):
        if self.server.app.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    def unreadable_body_reply(self, app):
        raise NotImplementedError

    def extra_headers(self, app):
        return []

    def _read_body(self):
        """The request body (Content-Length or chunked); None when it cannot be read, TRUNCATED when the
        connection ended before all of it arrived."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks, total = [], 0
            while True:
                line = self.rfile.readline(65537)
                if not line or (not line.endswith(b"\n") and len(line) < 65537):
                    return TRUNCATED  # the connection ended in the size line
                # The size is 1 to 8 hex digits, then optional extensions (`;name=value`): no sign, no
                # `0x`, no `_` (which int(…, 16) would take), nothing above 4 GiB.
                match = CHUNK_SIZE_LINE.fullmatch(line)
                if match is None:
                    return None
                size = int(match.group(1), 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                total += size
                if total > self.max_body_bytes:
                    return None
                chunk = self.rfile.read(size)
                if len(chunk) < size:
                    return TRUNCATED
                chunks.append(chunk)
                self.rfile.readline(3)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            size = int(length)
        except ValueError:
            return None
        if size < 0 or size > self.max_body_bytes:
            return None
        body = self.rfile.read(size) if size else b""
        return TRUNCATED if len(body) < size else body

    def _dispatch(self):
        body = self._read_body()
        app = self.server.app
        if body is TRUNCATED:
            # The client went away in the middle of its request (a killed process): like any HTTP server,
            # nothing is processed and nothing answered.
            self.close_connection = True
            return
        if body is None:
            reply = self.unreadable_body_reply(app)
            self.close_connection = True
        else:
            reply = app.handle(self.command, self.path, self.headers, body)
        if reply.action == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if isinstance(reply.action, tuple):
            time.sleep(reply.action[1])
        headers = [f"HTTP/1.1 {reply.status} {self.responses.get(reply.status, ('',))[0]}",
                   f"Date: {email.utils.formatdate(usegmt=True)}", f"Server: {self.server_version}",
                   *self.extra_headers(app),
                   f"Content-Length: {len(reply.body) if self.command != 'HEAD' else 0}"]
        headers += [f"{name}: {value}" for name, value in reply.headers.items()]
        if self.close_connection or (self.headers.get("Connection") or "").lower() == "close":
            headers.append("Connection: close")
            self.close_connection = True
        payload = ("\r\n".join(headers) + "\r\n\r\n").encode("latin-1")
        if self.command != "HEAD":
            payload += reply.body
        try:
            self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = _dispatch


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def fail(program, message):
    """Exit 2 (unusable arguments or input files) with `program: message` on stderr."""
    print(f"{program}: {message}", file=sys.stderr)
    sys.exit(2)


def load_public_key(path, fail):
    """The public key (PEM) tokens must be signed with; `fail` when it cannot be read or parsed."""
    try:
        with open(path, "rb") as handle:
            return serialization.load_pem_public_key(handle.read())
    except (OSError, ValueError) as error:
        fail(f"cannot read the public key {path}: {error}")


def serve(app, port, handler, fail):
    """Serves `app` on 127.0.0.1:`port` (0: any free port): prints exactly one line, `listening on
    http://127.0.0.1:PORT`, once it accepts connections, and serves until SIGTERM or SIGINT. Returns 0."""
    try:
        server = Server(("127.0.0.1", port), handler)
    except OSError as error:
        fail(f"cannot listen on 127.0.0.1:{port}: {error}")
    server.app = app
    app.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    stopping = threading.Event()

    def stop(*_):
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    # A parent may hand down a signal mask that blocks these (Swift's test runner does): unblock them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"listening on {app.base_url}", flush=True)
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    return 0
