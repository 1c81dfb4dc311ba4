"""Prints the one table of `Benchmarks/run` from the results it collected (standard library only).

Every in-process benchmark does OPERATIONS_PER_ITERATION operations per iteration (see
Benchmarks/OfferKitBenchmarks/OfferKitBenchmarks.swift), so operations per second are that
count over the median wall-clock time of an iteration.
"""

import argparse
import datetime
import json
import pathlib
import platform
import re
import statistics
import subprocess
import sys

OPERATIONS_PER_ITERATION = 1_000

# (benchmark name in OfferKitBenchmarks.swift, row label, minimum ratio to raw sign or None)
SIGNING_ROWS = [
    ("legacy signature ×1", "legacy signature (promotionalOfferSignatureV1)", 0.90),
    ("V2 promotional offer JWS ×1", "V2 promotional offer JWS", 0.85),
    ("introductory-offer eligibility JWS ×1", "introductory-offer eligibility JWS", None),
    ("Advanced Commerce JWS, small ×1", "Advanced Commerce JWS, one-time charge", None),
    ("Advanced Commerce JWS, large ×1", "Advanced Commerce JWS, 20-item subscription (13 KB)", None),
    ("App Store Server API token ×1", "App Store Server API token", None),
]


def fail(message):
    print(f"Benchmarks/report.py: {message}", file=sys.stderr)
    sys.exit(1)


def signing_results(path):
    """Operations per second and allocations per operation, by benchmark name."""
    results = {}
    for element in json.loads(path.read_text()):
        name = element["benchmark"].rsplit(".", 1)[-1].replace("_", " ")
        metrics = element.get("secondaryMetrics", {})
        wall = next((value for key, value in metrics.items() if "wall clock" in key.lower()), None)
        mallocs = next((value for key, value in metrics.items() if "malloc" in key.lower()), None)
        if wall is None:
            fail(f"no wall-clock metric for {name}")
        seconds = wall["scorePercentiles"]["50.0"] / 1e6
        results[name] = {
            "rate": OPERATIONS_PER_ITERATION / seconds,
            "mallocs": mallocs["scorePercentiles"]["50.0"] / OPERATIONS_PER_ITERATION if mallocs else None,
        }
    return results


def lookup(results, name):
    for key, value in results.items():
        if key == name or key.endswith(name):
            return value
    fail(f"the benchmark '{name}' did not run (have: {', '.join(sorted(results))})")


def verdict(met):
    return "yes" if met else "**no**"


def rate(value):
    return f"{value / 1000:,.1f}k/s"


def apply_rows(directory):
    """The rows of `codes apply` against the App Store Connect stand-in: (measurement, result, ratio, target, met)."""
    rows = []
    applies = [json.loads(line) for line in (directory / "apply.jsonl").read_text().splitlines() if line.strip()]
    for parallel in sorted({run["parallel"] for run in applies}, reverse=True):
        runs = sorted((run for run in applies if run["parallel"] == parallel),
                      key=lambda run: run["requests"] / run["seconds"])
        if any(run["rateLimited"] for run in runs):
            fail(f"the stand-in answered 429 to codes apply without a rate limit ({runs})")
        middle = runs[len(runs) // 2]
        per_second = middle["requests"] / middle["seconds"]
        target, met = ("≥ 200 requests/s", verdict(per_second >= 200)) if parallel == 8 else ("", "")
        rows.append((
            f"`codes apply --parallel {parallel}`, {middle['resources']:,} resources (2 offers, 2,000 custom codes), "
            "SQLite ledger, against the App Store Connect stand-in, no rate limit",
            f"{per_second:,.0f} requests/s (median of {len(runs)}: {middle['requests']:,} in {middle['seconds']:.1f} s)",
            "", target, met))
    throughput = (directory / "standin-throughput.txt").read_text()
    found = re.search(r"POST x1: (\d+)/s, POST x8: (\d+)/s", throughput)
    if not found:
        fail(f"no throughput line from the stand-in's test: {throughput[-500:]}")
    rows.append(("the stand-in alone: POST of a custom code from its Python client, 1 / 8 connections",
                 f"{int(found.group(1)):,} / {int(found.group(2)):,} requests/s", "", "", ""))
    paced = json.loads((directory / "paced.json").read_text())
    given_back = paced["limit"] / 3600
    rows.append((
        f"`codes apply --parallel 4`, 101 resources, a key limited to {paced['limit']:,}/hour with {paced['left']} "
        f"left (one more every {3600 / paced['limit']:g} s)",
        f"{paced['rateLimited']} × 429; paced to {paced['pacedPerSecond']:.2f} requests/s; "
        f"{paced['requests']} in {paced['seconds']:.1f} s",
        f"{paced['pacedPerSecond'] / given_back:.2f}× the rate given back", "0 × 429",
        verdict(paced["rateLimited"] == 0)))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results", type=pathlib.Path)
    parser.add_argument("--batch-lines", type=int, required=True)
    parser.add_argument("--codes", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--export-codes", type=int, required=True)
    parser.add_argument("--postgres-settings", default="?")
    parser.add_argument("--cpu", default="unknown CPU")
    parser.add_argument("--cores", default="?")
    arguments = parser.parse_args()
    directory = arguments.results

    signing = signing_results(directory / "signing.jmh.json")
    raw = lookup(signing, "raw P-256 sign ×1")["rate"]
    raw2 = lookup(signing, "raw P-256 sign ×2")["rate"]

    rows = []

    def row(measurement, result, ratio, target, met, mallocs=None):
        rows.append((measurement, result, ratio, "—" if mallocs is None else f"{mallocs:.0f}", target, met))

    row("raw P-256 sign (swift-crypto), 1 thread", rate(raw), "1.00× (reference)", "", "",
        lookup(signing, "raw P-256 sign ×1")["mallocs"])
    row("raw P-256 sign (swift-crypto), 2 threads", rate(raw2), f"{raw2 / raw:.2f}× one thread", "", "",
        lookup(signing, "raw P-256 sign ×2")["mallocs"])
    for name, label, minimum in SIGNING_ROWS:
        result = lookup(signing, name)
        ratio = result["rate"] / raw
        row(label, rate(result["rate"]), f"{ratio:.2f}× raw",
            f"≥ {minimum:.2f}× raw" if minimum else "", verdict(ratio >= minimum) if minimum else "",
            result["mallocs"])
    one = lookup(signing, "V2 promotional offer JWS ×1")["rate"]
    shared = lookup(signing, "V2 promotional offer JWS ×2")
    scaling = shared["rate"] / one
    row("V2 JWS, one shared signer, 2 threads", rate(shared["rate"]),
        f"{scaling:.2f}× one thread; {shared['rate'] / raw2:.2f}× raw on 2", "≥ 1.80× one thread",
        verdict(scaling >= 1.8), shared["mallocs"])

    invocation = json.loads((directory / "invocation.json").read_text())["results"][0]
    median_ms = invocation["median"] * 1000
    row("one `offerkit sign promotional-offer` (release)",
        f"{median_ms:.1f} ms (median of {len(invocation['times'])})",
        f"min {invocation['min'] * 1000:.1f} ms", "< 50 ms", verdict(median_ms < 50))

    batch = json.loads((directory / "batch.json").read_text())["results"][0]
    lines_per_second = arguments.batch_lines / batch["median"]
    row(f"`offerkit batch`, {arguments.batch_lines:,} V2 lines", f"{rate(lines_per_second)} ({batch['median']:.2f} s)",
        f"{lines_per_second / raw2:.2f}× raw on 2", "", "")

    runs = [line.split() for line in (directory / "codes.time").read_text().splitlines() if line.strip()]
    seconds = statistics.median(float(run[0]) for run in runs)
    peak_mb = max(int(run[1]) for run in runs) * 1024 / 1e6
    row(f"{arguments.codes:,} custom codes streamed to a file",
        f"{seconds:.2f} s (median of {len(runs)}), peak RSS {peak_mb:.0f} MB (max of {len(runs)})", "",
        "< 2 s, < 150 MB", verdict(seconds < 2 and peak_mb < 150))

    def load(name):
        result = json.loads((directory / f"{name}.json.result").read_text())
        if result["not_2xx"] or result["socket_errors"] or result.get("failed"):
            fail(f"under load {name} gave {result['not_2xx']} answers of 400 and above, "
                 f"{result.get('failed', 0)} batches with failed items and {result['socket_errors']} socket errors")
        return result["requests"] / result["seconds"], result["p50_us"] / 1000, result["p99_us"] / 1000

    def latency(p50, p99):
        return f"p50 {p50:.2f} ms, p99 {p99:.2f} ms"

    wrk = f"wrk 1 thread, {arguments.connections} connections"
    nginx_rate, nginx_p50, nginx_p99 = load("http-nginx")
    bare_rate, bare_p50, bare_p99 = load("http-bare")
    health_rate, health_p50, health_p99 = load("http-healthz")
    single_rate, single_p50, single_p99 = load("http-single")
    peer_rate, peer_p50, peer_p99 = load("http-peer")
    row(f"nginx `return 200` (Debian's package, the machine's HTTP floor), {wrk}",
        f"{rate(nginx_rate)}, {latency(nginx_p50, nginx_p99)}", f"{nginx_rate / bare_rate:.2f}× bare Hummingbird",
        "", "")
    row("a bare Hummingbird 2 app, GET /healthz returning a constant (release), same load",
        f"{rate(bare_rate)}, {latency(bare_p50, bare_p99)}", f"1.00× (HTTP reference); {bare_rate / nginx_rate:.2f}× nginx",
        "", "")
    health_ratio = health_rate / bare_rate
    row("`offerkit serve`, GET /healthz, same load", f"{rate(health_rate)}, {latency(health_p50, health_p99)}",
        f"{health_ratio:.2f}× bare Hummingbird", "≥ 0.80× bare Hummingbird", verdict(health_ratio >= 0.8))
    single_ratio = single_rate / bare_rate
    row("`offerkit serve`, V2 JWS (POST /v1/signatures/promotional-offer), same load",
        f"{rate(single_rate)}, {latency(single_p50, single_p99)}",
        f"{single_ratio:.2f}× bare Hummingbird; {single_rate / raw2:.2f}× raw on 2; "
        f"{single_rate / health_rate:.2f}× /healthz", "≥ 0.50× bare Hummingbird, p99 < 2 ms",
        verdict(single_ratio >= 0.5 and single_p99 < 2))
    batch_rows = [items for items in (10, 100) if (directory / f"http-batch-{items}.json.result").exists()]
    if not batch_rows:
        row("`offerkit serve`, V2 JWS in batches (POST /v1/signatures/batch)", "not measured: this build has no "
            "batch endpoint", "", "≥ 0.70× raw on 2 (batches of 100)", "**no**")
    for items in batch_rows:
        batch_rate, batch_p50, batch_p99 = load(f"http-batch-{items}")
        signatures = batch_rate * items
        target, met = ("≥ 0.70× raw on 2", verdict(signatures / raw2 >= 0.7)) if items == 100 else ("", "")
        row(f"`offerkit serve`, V2 JWS in batches of {items} (POST /v1/signatures/batch), same load",
            f"{batch_rate:,.0f} requests/s = {rate(signatures)} signatures, {latency(batch_p50, batch_p99)}",
            f"{signatures / raw2:.2f}× raw on 2; {signatures / single_rate:.2f}× single", target, met)
    peer_ratio = single_rate / peer_rate
    row("the peer: FastAPI + uvicorn (2 workers, uvloop, httptools) + Apple's App Store Server Library "
        "(Python), the same V2 endpoint, same load",
        f"{rate(peer_rate)}, {latency(peer_p50, peer_p99)}", f"`offerkit serve` V2 at {peer_ratio:.1f}× it",
        "`offerkit serve` ≥ 5× it", verdict(peer_ratio >= 5))

    retention = json.loads((directory / "retention.json.result").read_text())
    answered = retention["requests"] - retention["not_2xx"] - retention["failed"]
    success = 100 * answered / retention["requests"] if retention["requests"] else 0
    retention_rate = retention["requests"] / retention["seconds"]
    retention_p99 = retention["p99_us"] / 1000
    row(f"Retention Messaging endpoint: Apple-signed requests, each verified and answered with a V2 offer "
        f"signed on the spot, wrk 1 thread, {arguments.connections} connections",
        f"{rate(retention_rate)}, p50 {retention['p50_us'] / 1000:.2f} ms, p99 {retention_p99:.2f} ms, "
        f"{success:.2f}% success ({retention['requests']:,} requests, {retention['replayed']:,} replays, "
        f"{retention['socket_errors']} socket errors)",
        f"{retention_rate / health_rate:.2f}× /healthz; {retention_rate / raw2:.2f}× raw on 2",
        "100% success, p99 < 10 ms (Apple: 700 ms)",
        verdict(success == 100 and retention["socket_errors"] == 0 and retention_p99 < 10))
    tls_health_rate, tls_health_p50, tls_health_p99 = load("https-healthz")
    tls_single_rate, tls_single_p50, tls_single_p99 = load("https-single")
    row("`offerkit serve` terminating TLS itself (P-256 certificate; one handshake per keep-alive "
        "connection), GET /healthz, same load",
        f"{rate(tls_health_rate)}, {latency(tls_health_p50, tls_health_p99)}",
        f"{tls_health_rate / health_rate:.2f}× /healthz over plain HTTP", "", "")
    row("`offerkit serve` terminating TLS itself, V2 JWS, same load",
        f"{rate(tls_single_rate)}, {latency(tls_single_p50, tls_single_p99)}",
        f"{tls_single_rate / single_rate:.2f}× V2 over plain HTTP", "", "")
    # The resident set before any request, then after each `offerkit serve` row; "under load" is idle against
    # the last signing row (the Retention Messaging row's replay cache keeps what it answered).
    samples = [json.loads(line) for line in (directory / "memory.jsonl").read_text().splitlines() if line.strip()]
    megabytes = {sample["after"]: sample["kb"] * 1024 / 1e6 for sample in samples}
    idle_mb = megabytes["idle"]
    loaded_mb = [value for key, value in megabytes.items() if key != "Retention Messaging"][-1]
    growth = loaded_mb - idle_mb
    row("`offerkit serve` resident memory (VmRSS from /proc): idle before any request, then after each of its rows",
        f"{idle_mb:.1f} MB idle; after " + ", ".join(
            f"{key} {value:.1f}" for key, value in megabytes.items() if key != "idle") + " MB",
        f"{growth:+.1f} MB ({100 * growth / idle_mb:+.0f}%) under the signing load",
        "flat: within +10% or +5 MB", verdict(growth <= max(0.1 * idle_mb, 5)))

    claims = [json.loads(line) for line in (directory / "claims.jsonl").read_text().splitlines() if line.strip()]
    def claim_rate(claim):
        return claim["claims"] / claim["seconds"]
    # Issue 30's targets are for one claim at a time per process (tasks 1): each claim waits for its
    # own durable commit. With several claims under way in a process (as in `offerkit serve`), SQLite
    # commits them in groups: those rows show what a busy service gets, without a target.
    sqlite_eight = [claim_rate(c) for c in claims if c["backend"] == "sqlite" and c["clients"] == 8
                    and c.get("tasks", 1) == 1]
    # The floor under SQLite's one-at-a-time row: the claim's statements in a bare loop of Python's sqlite3.
    bare_loop = claim_rate(json.loads((directory / "claims-floor.json").read_text()))
    row("claims, the SQLite claim's statements in a bare loop (Python's sqlite3, one at a time, same pragmas; "
        "Benchmarks/sqlite_claim_floor.py)", f"{bare_loop:,.0f}/s", "1.00× (floor)", "", "")
    for claim in claims:
        if claim["duplicates"]:
            fail(f"{claim['duplicates']} codes went to two recipients ({claim})")
        per_second = claim_rate(claim)
        backend, clients, tasks = claim["backend"], claim["clients"], claim.get("tasks", 1)
        on_pool = claim.get("onPool", False)
        target, met = "", ""
        if backend == "sqlite" and clients == 1 and tasks == 1 and not on_pool:
            target, met = "≥ 4,000/s", verdict(per_second >= 4000)
        if backend == "postgres" and clients == 8 and tasks == 1:
            floor = max([3000] + sqlite_eight)
            target, met = "≥ 3,000/s and ≥ the SQLite 8-process row", verdict(per_second >= floor)
        ratio = "0 duplicates"
        if backend == "sqlite" and clients == 1 and tasks == 1:
            ratio += f"; {per_second / bare_loop:.2f}× the bare loop"
        # One claim at a time, each client's loop runs on the ledger's write executor
        # (CodeLedger.writeExecutor, SQLite only), but for the row marked onPool.
        runs_on = ""
        if backend == "sqlite" and tasks == 1:
            runs_on = "; on Swift's pool" if on_pool else "; the loop on the ledger's write executor"
        where = f"SQLite (WAL, synchronous FULL{runs_on})" if backend == "sqlite" else (
            f"PostgreSQL 15 on loopback (fsync/synchronous_commit {arguments.postgres_settings})")
        under_way = "one claim at a time" if tasks == 1 else f"{tasks} claims under way"
        row(f"claims, {clients} client process{'es' if clients > 1 else ''} ({under_way} each), {where}",
            f"{per_second:,.0f}/s ({claim['claims']:,} in {claim['seconds']:.2f} s)", ratio, target, met)
    seconds_text, kilobytes = (directory / "export.time").read_text().split()
    export_mb = int(kilobytes) * 1024 / 1e6
    row(f"`codes export --recipients`, {arguments.export_codes:,} recipients assigned and written (SQLite)",
        f"{float(seconds_text):.1f} s, peak RSS {export_mb:.0f} MB", "", "< 150 MB", verdict(export_mb < 150))

    for measured in apply_rows(directory):
        row(*measured)

    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    print(f"OfferKit benchmarks, {datetime.date.today()}: {arguments.cpu}, {arguments.cores} cores, "
          f"{swift[0] if swift else 'swift'}, {platform.system()} {platform.release()}")
    print()
    header = ("measurement", "result", "ratio", "allocs/op", "target", "met")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---", "---:", "---", "---:", "---", "---"]) + "|")
    for measured in rows:
        print("| " + " | ".join(measured) + " |")


if __name__ == "__main__":
    main()
