"""Validates Kubernetes objects against the API schemas of one Kubernetes version, offline.

Reads a JSON array of objects on stdin and prints a JSON array with one verdict per object:
{"kind", "name", "verdict": "passed" | "failed" | "no-schema", "message"}. The schemas are the
ones the kubernetes-validate package bundles (strict: an unknown field fails). Usage:

    python3 validate_manifests.py 1.37.0 < objects.json
"""
import json
import sys

import kubernetes_validate


def verdict(obj, version):
    name = {"kind": obj.get("kind"), "name": obj.get("metadata", {}).get("name")}
    try:
        kubernetes_validate.validate(obj, version, strict=True)
        return {**name, "verdict": "passed", "message": ""}
    except kubernetes_validate.SchemaNotFoundError as error:
        return {**name, "verdict": "no-schema", "message": str(error)}
    except kubernetes_validate.ValidationError as error:
        where = "/".join(str(part) for part in error.path)
        return {**name, "verdict": "failed", "message": f"{where}: {error.message}"}


def main():
    version = sys.argv[1]
    objects = json.load(sys.stdin)
    json.dump([verdict(obj, version) for obj in objects], sys.stdout)


if __name__ == "__main__":
    main()
