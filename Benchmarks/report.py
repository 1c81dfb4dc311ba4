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
        result = json.loads((directory / name).read_text())
        if result["not_2xx"] or result["socket_errors"]:
            fail(f"under load the service gave {result['not_2xx']} answers other than 2xx, "
                 f"with {result['socket_errors']} socket errors ({name})")
        return result["requests"] / result["seconds"], result["p50_us"] / 1000, result["p99_us"] / 1000

    requests_per_second, p50_ms, p99_ms = load("service.json.result")
    service_ratio = requests_per_second / raw2
    row(f"`offerkit serve`, V2 JWS over HTTP/1.1, wrk 1 thread, {arguments.connections} connections",
        f"{rate(requests_per_second)}, p50 {p50_ms:.2f} ms, p99 {p99_ms:.2f} ms",
        f"{service_ratio:.2f}× raw on 2", "≥ 0.60× raw on 2, p99 < 10 ms",
        verdict(service_ratio >= 0.6 and p99_ms < 10))
    floor_rate, floor_p50, floor_p99 = load("floor.json.result")
    row("`offerkit serve`, GET /healthz, same load (HTTP stack and wrk alone)",
        f"{rate(floor_rate)}, p50 {floor_p50:.2f} ms, p99 {floor_p99:.2f} ms",
        f"{floor_rate / raw2:.2f}× raw on 2; signing at {requests_per_second / floor_rate:.2f}× of it", "", "")

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
        f"{retention_rate / floor_rate:.2f}× /healthz; {retention_rate / raw2:.2f}× raw on 2",
        "100% success, p99 < 10 ms (Apple: 700 ms)",
        verdict(success == 100 and retention["socket_errors"] == 0 and retention_p99 < 10))

    for line in (directory / "claims.jsonl").read_text().splitlines():
        claim = json.loads(line)
        if claim["duplicates"]:
            fail(f"{claim['duplicates']} codes went to two recipients ({claim})")
        per_second = claim["claims"] / claim["seconds"]
        backend, clients = claim["backend"], claim["clients"]
        target, met = "", ""
        if backend == "sqlite" and clients == 1:
            target, met = "≥ 2,000/s", verdict(per_second >= 2000)
        if backend == "postgres" and clients == 8:
            target, met = "≥ 1,000/s, no duplicates", verdict(per_second >= 1000)
        where = "SQLite (WAL, synchronous FULL)" if backend == "sqlite" else (
            f"PostgreSQL 15 on loopback (fsync/synchronous_commit {arguments.postgres_settings})")
        row(f"claims, {clients} client process{'es' if clients > 1 else ''}, {where}",
            f"{per_second:,.0f}/s ({claim['claims']:,} in {claim['seconds']:.2f} s)", "0 duplicates", "", target,
            met)
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
