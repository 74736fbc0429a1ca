"""Validates `servebench launch k8s` output against Kubernetes' published JSON schemas (pinned
in tests/data/k8s: yannh/kubernetes-json-schema v1.31.0 local-strict, as shipped by the PyPI
package kubernetes-validate 1.37.0). Usage: validate_k8s.py SCHEMA_DIR MANIFEST.json"""
import json
import sys

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

schema_dir, manifest = sys.argv[1], sys.argv[2]
defs = json.load(open(f"{schema_dir}/_definitions.json"))
res = Resource.from_contents(defs, default_specification=DRAFT202012)
registry = Registry().with_resources([("_definitions.json", res), ("/api/_definitions.json", res)])
doc = json.load(open(manifest))
assert doc["kind"] == "List", "expected a List"
for item, schema in zip(doc["items"], ["service-v1.json", "job-batch-v1.json"]):
    s = json.load(open(f"{schema_dir}/{schema}"))
    jsonschema.validators.validator_for(s, default=jsonschema.Draft202012Validator)(s, registry=registry).validate(item)
    print(f"{item['kind']} {item['metadata']['name']}: valid against {schema}")
# A broken Job must fail (the check can fail).
bad = doc["items"][1]
bad["spec"]["completionMode"] = 7
try:
    jsonschema.Draft202012Validator(json.load(open(f"{schema_dir}/job-batch-v1.json")), registry=registry).validate(bad)
    sys.exit("a Job with a numeric completionMode passed validation")
except jsonschema.ValidationError:
    print("a broken Job is rejected")
