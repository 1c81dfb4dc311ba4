"""The floor under the ledger's SQLite claims: the statements of one claim, run by Python's sqlite3 in a bare loop.

    python3 Benchmarks/sqlite_claim_floor.py LEDGER CLAIMS    one JSON line: claims, seconds

LEDGER is a file that `offerkit-ledger-bench setup LEDGER CLAIMS` recorded (campaign "bench", offer "Claim", one
batch of personal codes, nothing handed out). Each claim is what the ledger's SQLite store runs for one claim
(Sources/OfferLedger/SQLite/SQLiteClaim.swift), in a transaction of its own, one after the other, on one
connection with the ledger's pragmas (write-ahead log, synchronous FULL): the recipient's code if they hold one, the
offer's switch and revision, the lane whose next code comes first, that code and its digest, the assignment and
the lane moved on, then the commit (one fsync). Without OfferKit's checks, types or threads: what the disk and
SQLite allow one claim at a time, for the ratio of the ledger's own row in the same run.
"""
import json
import sqlite3
import sys
import time

path, count = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path, isolation_level=None)
if db.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
    sys.exit(f"{path}: SQLite did not take the write-ahead log")
db.execute("PRAGMA synchronous = FULL")
db.execute("PRAGMA foreign_keys = ON")
(batch,) = db.execute("SELECT id FROM batches WHERE campaign = 'bench' AND offer = 'Claim'").fetchone()
if db.execute("SELECT COUNT(*) FROM assignments").fetchone()[0]:
    sys.exit(f"{path}: codes were handed out already; use a ledger fresh from offerkit-ledger-bench setup")
start = time.perf_counter()
for index in range(count):
    recipient = f"user-{index}"
    db.execute("BEGIN IMMEDIATE")
    held = db.execute(
        "SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), c.digest, a.channel, a.assigned_at "
        "FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq "
        "WHERE a.campaign = ? AND a.offer = ? AND a.environment = ? AND a.recipient = ?",
        ("bench", "Claim", "PRODUCTION", recipient)).fetchone()
    if held is not None:
        sys.exit(f"{path}: {recipient} holds a code already")
    active, _ = db.execute("SELECT active, revision FROM offers WHERE campaign = ? AND name = ?",
                           ("bench", "Claim")).fetchone()
    lane = db.execute(
        "SELECT lane, taken, step FROM code_lanes WHERE batch_id = ? AND taken < capacity "
        "ORDER BY lane + taken * step LIMIT 1", (batch,)).fetchone()
    if not active or lane is None:
        sys.exit(f"{path}: no code left for claim {index + 1}")
    seq = lane[0] + lane[1] * lane[2]
    db.execute("SELECT ?, ?, COALESCE(code, code_key), digest FROM codes WHERE batch_id = ? AND seq = ?",
               (batch, seq, batch, seq)).fetchone()
    db.execute(
        "INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel, "
        "assigned_at) VALUES (?, ?, ?, ?, ?, ?, 0, 'claim', ?)",
        (batch, seq, "bench", "Claim", "PRODUCTION", recipient, "2027-01-15T00:00:00.000Z"))
    db.execute("UPDATE code_lanes SET taken = taken + 1 WHERE batch_id = ? AND lane = ?", (batch, lane[0]))
    db.execute("COMMIT")
seconds = time.perf_counter() - start
print(json.dumps({"claims": count, "seconds": seconds}))
