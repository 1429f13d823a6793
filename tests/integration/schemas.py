# schemas.py: part of schemas.sh.
import glob, json, os, sys
from jsonschema import Draft202012Validator

schemas_dir, work = sys.argv[1], sys.argv[2]
validators = {}
for path in glob.glob(os.path.join(schemas_dir, "*.json")):
    with open(path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validators[os.path.basename(path)[:-5]] = Draft202012Validator(schema)

failed = 0
counts = {}
def check(path, origin):
    global failed
    kind = os.path.basename(path).split(".")[0]
    raw = open(path, "rb").read()
    if origin == "ours" and any(b >= 0x80 for b in raw):
        print(f"FAIL {path}: not ASCII"); failed += 1
    doc = json.loads(raw)
    errors = list(validators[kind].iter_errors(doc))
    for e in errors[:3]:
        print(f"FAIL {origin} {os.path.basename(path)}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    failed += bool(errors)
    counts[(origin, kind)] = counts.get((origin, kind), 0) + 1

for origin in ("ours", "real"):
    for path in sorted(glob.glob(os.path.join(work, origin, "*.json"))):
        check(path, origin)
# The reports of check and match are validated by report_schemas.sh, the web
# page's answers (web-*) by web_api.sh.
for kind in validators:
    if kind in ("check-report", "match-result") or kind.startswith("web-"):
        continue
    if ("ours", kind) not in counts:
        print(f"FAIL we wrote no {kind} message"); failed += 1

# Each schema must refuse what the protocol forbids.
bad = {
    "choose-turn-response": [
        {"turn_type": "Movement", "source": "0,0", "destination": "2,0", "error": "x"},
        {"turn_type": "Pass"},
        {"turn_type": "Placement", "piece_type": "Ant", "destination": "0,0"},
        {"turn_type": "Movement", "source": "0, 0", "destination": "2,0"},
    ],
    "greetings-response": [{"response_type": "Greetings"}],
    "greetings-request": [{"request_type": "Choose Turn"}],
    "error-frame": [{"success": True, "error": "x"}],
}
real_request = json.load(open(glob.glob(os.path.join(work, "real", "choose-turn-request.choose-turn-mlp*"))[0]))
forfeit_and_more = json.loads(json.dumps(real_request))
forfeit_and_more["game_state"]["possible_turns"]["Forfeit"] = True
zero_hand = json.loads(json.dumps(real_request))
zero_hand["game_state"]["hands"]["White"]["Beetle"] = 0
bad["choose-turn-request"] = [forfeit_and_more, zero_hand]
for kind, docs in bad.items():
    for doc in docs:
        if validators[kind].is_valid(doc):
            print(f"FAIL {kind} accepts {json.dumps(doc)[:120]}"); failed += 1

for (origin, kind), n in sorted(counts.items()):
    print(f"{origin:4} {kind:22} {n} valid" if not failed else f"{origin:4} {kind:22} {n} checked")
print("schemas:", "FAILED" if failed else "all messages valid")
sys.exit(1 if failed else 0)
