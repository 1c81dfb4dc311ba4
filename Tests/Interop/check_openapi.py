"""Checks OfferKit's OpenAPI document with independent tools (PyPI), outside the Swift code.

usage: check_openapi.py DOCUMENT.json [DOCUMENT.yaml]

1. openapi-spec-validator accepts the document as OpenAPI 3.1.
2. Every example validates, with jsonschema (Draft 2020-12), against the schema written next to
   it: a schema's `examples`, a media type's `example`, and each value of a media type's `examples`
   ($refs resolved within the document).
3. The YAML, when given, loads with PyYAML (safe_load) to exactly the JSON document.

Prints one JSON line: {"examples": <how many were checked>, "yaml": <whether it was compared>}.
Exits non-zero with the reasons on stderr on any failure.
"""
import json
import sys
from urllib.parse import quote

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = "urn:offerkit:openapi"


def pointer(parts):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts) if parts else ""


def examples(node, parts, found):
    """(example, pointer to its schema, where) for every example in the document."""
    if isinstance(node, dict):
        if isinstance(node.get("examples"), list):
            for index, value in enumerate(node["examples"]):
                found.append((value, parts, pointer(parts + ["examples", index])))
        if "schema" in node and "example" in node:
            found.append((node["example"], parts + ["schema"], pointer(parts + ["example"])))
        if "schema" in node and isinstance(node.get("examples"), dict):
            for name, example in node["examples"].items():
                found.append((example["value"], parts + ["schema"], pointer(parts + ["examples", name, "value"])))
        for key, value in node.items():
            examples(value, parts + [key], found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            examples(value, parts + [index], found)
    return found


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as handle:
        document = json.load(handle)
    failures = []

    try:
        validate(document)
    except Exception as error:  # the validator's own error types vary between versions
        failures.append(f"openapi-spec-validator: {error}")

    registry = Registry().with_resource(BASE, Resource(contents=document, specification=DRAFT202012))
    found = examples(document, [], [])
    for value, schema_parts, where in found:
        reference = {"$ref": BASE + "#" + quote(pointer(schema_parts), safe="/~")}
        validator = Draft202012Validator(reference, registry=registry)
        for error in validator.iter_errors(value):
            failures.append(f"example {where}: {error.message} (at {list(error.absolute_path)})")

    compared_yaml = len(sys.argv) == 3
    if compared_yaml:
        with open(sys.argv[2], encoding="utf-8") as handle:
            loaded = yaml.safe_load(handle)
        if loaded != document:
            failures.append("the YAML does not load to the JSON document")

    if failures:
        print("\n".join(failures), file=sys.stderr)
        raise SystemExit(1)
    print(json.dumps({"examples": len(found), "yaml": compared_yaml}))


if __name__ == "__main__":
    main()
