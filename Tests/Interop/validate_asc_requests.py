#!/usr/bin/env python3
"""Independent check of OfferKit's App Store Connect request plans against Apple's schemas.

Uses `jsonschema` (Draft 2020-12, with a `referencing` registry so `#/components/schemas/X`
resolves, and a FormatChecker so `format: date` is enforced), not OfferKit's code. For every
request of every plan:
  * `body` validates against the schema named in `schema`, as Apple publishes it;
  * `body` also validates against a strict copy in which every object schema that lists
    `properties` gets `additionalProperties: false` (Apple's schemas allow extra members, so a
    misspelled member would otherwise pass);
  * `method` + `path` is the operation that takes that schema as its body (paths summary);
  * every `data.relationships.prices.data[].id` appears exactly once among `included[].id`, and
    every included id exactly once among the price ids;
  * every placeholder `<id of X>` names an earlier request of the same plan that `dependsOn`
    lists, and every `dependsOn` entry is an earlier request.

Usage: validate_asc_requests.py SCHEMAS_JSON PLAN_JSON [PLAN_JSON ...] [--paths PATHS_SUMMARY]

SCHEMAS_JSON is {"info": {"version": ...}, "schemas": {...}}, one set of Apple's schemas
(`<set>_schemas_<version>.json`); every other set of the same version next to it is loaded too
(Tests/Fixtures/app-store-connect/README.md), a schema named in two sets being the same in both.
PLAN_JSON is an OfferKit plan document ({"requests": [...]}) or a JSON array of requests; each file
is its own id namespace. PATHS_SUMMARY defaults to each set's `<set>_paths_summary_<version>.txt`.
Prints one line per failure (file, request id, JSON path, message) and exits 1 on any failure;
prints "N requests valid against App Store Connect API <version> schemas" and exits 0 otherwise.
Exit 2: unusable arguments or input files.
"""
import ast
import glob
import json
import os
import re
import sys

from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE_URI = "urn:offerkit:asc-schemas"
PLACEHOLDER = re.compile(r"<id of ([^<>]*)>")
SUMMARY_LINE = re.compile(r"^(GET|POST|PATCH|PUT|DELETE)\s+(\S+)\s+op=\S+\s+body=(\[[^\]]*\])")
REQUEST_MEMBERS = ("id", "method", "path", "schema", "dependsOn", "body")


def usage_error(message):
    print(f"validate_asc_requests.py: {message}", file=sys.stderr)
    print(__doc__.split("\n\n")[2], file=sys.stderr)
    sys.exit(2)


def load_json(path, what):
    try:
        with open(path, "rb") as handle:
            return json.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError) as error:
        usage_error(f"cannot read {what} {path}: {error}")


def load_sets(schemas_path):
    """(version, {name: schema}, [each set's schemas file]) of SCHEMAS_JSON and every set of its version beside it.

    A set is `<set>_schemas_<version>.json`; a schema two sets both hold must be the same in both (they are
    extracted from the same document of Apple's)."""
    document = load_json(schemas_path, "schemas file")
    schemas = document.get("schemas") if isinstance(document, dict) else None
    if not isinstance(schemas, dict):
        usage_error(f"{schemas_path} has no top-level \"schemas\" object")
    version = str(document.get("info", {}).get("version", "unknown"))
    folder = os.path.dirname(os.path.abspath(schemas_path))
    files = [os.path.abspath(schemas_path)]
    merged = dict(schemas)
    for other in sorted(glob.glob(os.path.join(glob.escape(folder), f"*_schemas_{version}.json"))):
        if other in files:
            continue
        extra = load_json(other, "schemas file")
        if not isinstance(extra, dict) or not isinstance(extra.get("schemas"), dict) \
                or str(extra.get("info", {}).get("version")) != version:
            usage_error(f"{other} is not a set of App Store Connect API {version} schemas")
        for name, schema in extra["schemas"].items():
            if name in merged and merged[name] != schema:
                usage_error(f"{other} and another set disagree on the schema {name}")
            merged[name] = schema
        files.append(other)
    return version, merged, files


def summary_of(schemas_file):
    """`<set>_paths_summary_<version>.txt` of `<set>_schemas_<version>.json`."""
    folder, name = os.path.split(schemas_file)
    return os.path.join(folder, name.replace("_schemas_", "_paths_summary_", 1).rsplit(".", 1)[0] + ".txt")


def strict_copy(node):
    """A deep copy in which every object schema listing `properties` rejects other members."""
    if isinstance(node, list):
        return [strict_copy(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: strict_copy(value) for key, value in node.items()}
    if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
        result["additionalProperties"] = False
    return result


def registry_for(schemas):
    root = {"components": {"schemas": schemas}}
    resource = Resource.from_contents(root, default_specification=DRAFT202012)
    return Registry().with_resource(BASE_URI, resource)


def request_operations(summary_paths):
    """{schema name: {(method, path), ...}} for the operations that take a request body."""
    operations = {}
    lines = []
    for summary_path in summary_paths:
        try:
            with open(summary_path, encoding="utf-8") as handle:
                lines += handle.read().splitlines()
        except OSError as error:
            usage_error(f"cannot read the paths summary {summary_path}: {error}")
    for line in lines:
        match = SUMMARY_LINE.match(line)
        if not match:
            continue
        method, path, bodies = match.group(1), match.group(2), ast.literal_eval(match.group(3))
        for schema in bodies:
            operations.setdefault(schema, set()).add((method, path))
    if not operations:
        usage_error(f"{', '.join(summary_paths)} list no operation with a request body")
    return operations


class Checker:
    def __init__(self, schemas, operations):
        self.schemas = schemas
        self.operations = operations
        self.plain_registry = registry_for(schemas)
        self.strict_registry = registry_for(strict_copy(schemas))
        self.validators = {}

    def validators_for(self, name):
        if name not in self.validators:
            ref = {"$ref": f"{BASE_URI}#/components/schemas/{name}"}
            self.validators[name] = (
                Draft202012Validator(ref, registry=self.plain_registry, format_checker=FormatChecker()),
                Draft202012Validator(ref, registry=self.strict_registry, format_checker=FormatChecker()),
            )
        return self.validators[name]

    def schema_failures(self, name, body):
        plain, strict = self.validators_for(name)
        failures = []
        seen = set()
        for validator, label in ((plain, ""), (strict, " [strict: not a member of Apple's schema]")):
            for error in sorted(validator.iter_errors(body), key=lambda e: (e.json_path, e.message)):
                key = (error.json_path, error.message)
                if key in seen:
                    continue
                seen.add(key)
                failures.append((error.json_path, f"{error.message} ({name}){label}"))
        return failures

    def check(self, index, request, earlier):
        """Failures of one request as (JSON path, message) pairs."""
        if not isinstance(request, dict):
            return [(f"$.requests[{index}]", "a request must be an object")]
        failures = [(f"$.requests[{index}]", f"missing member {m!r}") for m in REQUEST_MEMBERS if m not in request]
        if failures:
            return failures
        name, method, path, depends, body = (request[k] for k in ("schema", "method", "path", "dependsOn", "body"))
        if name not in self.schemas:
            return [("$.schema", f"{name!r} is not a schema of the App Store Connect API")]
        failures += self.schema_failures(name, body)
        allowed = self.operations.get(name, set())
        if (method, path) not in allowed:
            expected = ", ".join(f"{m} {p}" for m, p in sorted(allowed)) or "no operation"
            failures.append(("$.path", f"{method} {path} does not take {name} (expected {expected})"))
        failures += self.price_failures(body)
        failures += self.placeholder_failures(body, depends, earlier)
        return failures

    @staticmethod
    def price_failures(body):
        data = body.get("data") if isinstance(body, dict) else None
        relationships = data.get("relationships") if isinstance(data, dict) else None
        prices = relationships.get("prices") if isinstance(relationships, dict) else None
        included = body.get("included", []) if isinstance(body, dict) else []
        if prices is None and not included:
            return []
        price_ids = [item.get("id") for item in (prices or {}).get("data", []) if isinstance(item, dict)]
        included_ids = [item.get("id") for item in included if isinstance(item, dict)]
        failures = []
        for position, price_id in enumerate(price_ids):
            count = included_ids.count(price_id)
            if count != 1:
                failures.append(
                    (f"$.data.relationships.prices.data[{position}].id",
                     f"{price_id!r} appears {count} times in included (expected exactly once)"))
        for position, included_id in enumerate(included_ids):
            count = price_ids.count(included_id)
            if count != 1:
                failures.append(
                    (f"$.included[{position}].id",
                     f"{included_id!r} appears {count} times in data.relationships.prices (expected exactly once)"))
        return failures

    @staticmethod
    def placeholder_failures(body, depends, earlier):
        failures = []
        if not isinstance(depends, list):
            return [("$.dependsOn", "dependsOn must be an array of request ids")]
        for position, dependency in enumerate(depends):
            if dependency not in earlier:
                failures.append((f"$.dependsOn[{position}]", f"{dependency!r} is not an earlier request of the plan"))

        def walk(node, path):
            if isinstance(node, dict):
                for key, value in node.items():
                    walk(value, f"{path}.{key}")
            elif isinstance(node, list):
                for position, value in enumerate(node):
                    walk(value, f"{path}[{position}]")
            elif isinstance(node, str):
                for target in PLACEHOLDER.findall(node):
                    if target not in earlier:
                        failures.append((path, f"placeholder names {target!r}, which is not an earlier request"))
                    elif target not in depends:
                        failures.append((path, f"placeholder names {target!r}, which dependsOn does not list"))

        walk(body, "$")
        return failures


def requests_of(plan, path):
    if isinstance(plan, list):
        return plan
    if isinstance(plan, dict) and isinstance(plan.get("requests"), list):
        return plan["requests"]
    usage_error(f"{path} is neither a plan document with \"requests\" nor an array of requests")


def main(argv):
    arguments, summary_path = [], None
    iterator = iter(argv)
    for argument in iterator:
        if argument == "--paths":
            summary_path = next(iterator, None) or usage_error("--paths needs a file")
        else:
            arguments.append(argument)
    if len(arguments) < 2:
        usage_error("expected SCHEMAS_JSON and at least one PLAN_JSON")
    version, schemas, files = load_sets(arguments[0])
    summaries = [summary_path] if summary_path is not None else [summary_of(f) for f in files]
    checker = Checker(schemas, request_operations(summaries))

    total, failed = 0, 0
    for plan_path in arguments[1:]:
        earlier = set()
        for index, request in enumerate(requests_of(load_json(plan_path, "plan"), plan_path)):
            total += 1
            request_id = request.get("id") if isinstance(request, dict) else None
            label = request_id if isinstance(request_id, str) else f"requests[{index}]"
            failures = checker.check(index, request, earlier)
            if label in earlier:
                failures.append(("$.id", f"{label!r} is used by an earlier request"))
            for json_path, message in failures:
                print(f"FAIL {plan_path} {label} {json_path}: {message}")
            failed += 1 if failures else 0
            if isinstance(request_id, str):
                earlier.add(request_id)
    if failed:
        print(f"{failed} of {total} requests failed against App Store Connect API {version} schemas")
        return 1
    print(f"{total} requests valid against App Store Connect API {version} schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
