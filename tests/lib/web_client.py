# web_client.py: what the web tests' Python parts share (imported from the top of
# the tree, never run on its own):
#
#   import sys; sys.path.insert(0, "tests/lib"); sys.dont_write_bytecode = True
#   from web_client import schema_validator
#
#   schema_validator(dir, names)  valid(obj, name): obj checked against dir/name.json
#                            (one of names; their $refs to each other resolved) and
#                            returned; works with Debian 12's jsonschema 4.10
#                            (RefResolver) and with >= 4.18 (referencing).
# (waiting and /proc: tests/lib/harness.py)
import json

import jsonschema
try:                        # jsonschema >= 4.18 resolves $ref through referencing;
    import referencing      # Debian 12's 4.10 only has RefResolver
except ImportError:
    referencing = None


def schema_validator(schemas, names):
    res, store, by_name = [], {}, {}
    for n in names:
        s = json.load(open(f"{schemas}/{n}.json"))
        store[s["$id"]] = by_name[n] = s
        if referencing:
            res.append((f"{n}.json", referencing.Resource.from_contents(s)))
            res.append((s["$id"], referencing.Resource.from_contents(s)))
    reg = referencing.Registry().with_resources(res) if referencing else None

    def valid(obj, name):
        s = by_name[name]
        if reg is not None:
            jsonschema.Draft202012Validator(s, registry=reg).validate(obj)
        else:
            resolver = jsonschema.RefResolver.from_schema(s, store=store)
            jsonschema.Draft202012Validator(s, resolver=resolver).validate(obj)
        return obj
    return valid
