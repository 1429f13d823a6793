# readme_transcripts.py: part of readme_transcripts.sh (its failure: "README transcripts").
import re, shlex, subprocess, sys

binary, readme = sys.argv[1], sys.argv[2]
text = open(readme).read()
errors = []

def block_after(heading):
    """The first ``` block after the heading line."""
    at = text.index(heading)
    start = text.index("```\n", at) + 4
    return text[start:text.index("```", start)].rstrip("\n").split("\n")

def vary(line):
    """Figures that differ between runs become N."""
    line = re.sub(r" nps=[0-9.]+", "", line)      # absent when time is 0
    line = re.sub(r"\b(nodes|time)=[0-9.]+", r"\1=N", line)
    return re.sub(r"\bnodes [0-9]+", "nodes N", line)

def match(want, got, what):
    i = j = 0
    while i < len(want):
        if want[i] == "...":
            if i + 1 == len(want):
                return
            # Up to the next line that matches the one after "...".
            while j < len(got) and not same(want[i + 1], got[j]):
                j += 1
            i += 1
            continue
        if j >= len(got) or not same(want[i], got[j]):
            errors.append("%s: line %d: README says %r, the program prints %r" %
                          (what, i + 1, want[i], got[j] if j < len(got) else "(nothing)"))
            return
        i += 1
        j += 1
    if j != len(got):
        errors.append("%s: the program prints more: %r" % (what, got[j:j + 3]))

def same(want, got):
    if want.endswith(" ..."):
        return vary(got).startswith(vary(want[:-3]))
    return vary(want) == vary(got)

def run(args, lines):
    p = subprocess.run([binary] + args, input="".join(l + "\n" for l in lines).encode(),
                       stdout=subprocess.PIPE, timeout=60)
    if p.returncode != 0:
        errors.append("%s: exit status %d" % (" ".join(args), p.returncode))
    return p.stdout.decode().rstrip("\n").split("\n")

# UHP: "$ hivebridge uhp", then each command follows an "ok".
t = block_after("### UHP engine on stdio")
assert t[0] == "$ hivebridge uhp", t[0]
t = t[1:]
inputs = [t[k + 1] for k in range(len(t) - 1) if t[k] == "ok"]
match([l for k, l in enumerate(t) if not (k > 0 and t[k - 1] == "ok")], run(["uhp"], inputs), "UHP")

# Hub: the lines that start with a Hub command are the GUI's.
hub_cmds = ("hub", "set-param", "init", "new-game", "pos", "level", "go", "ping", "stop", "quit")
t = block_after("### Hub: `hivebridge hub`")
match([l for l in t if l.split(" ")[0] not in hub_cmds],
      run(["hub"], [l for l in t if l.split(" ")[0] in hub_cmds]), "Hub")

# OTEP: "> " host, "< " bridge.
t = block_after("### OTEP: `hivebridge otep`")
match([l[2:] if l.startswith("< ") else l for l in t if not l.startswith("> ")],
      run(["otep", "--engine", "builtin:depth=3"], [l[2:] for l in t if l.startswith("> ")]), "OTEP")

# Game records: each "$ hivebridge ..." line is run (its words as a shell splits them), the
# lines up to the next one are its output.
t = block_after("### Game records: `hivebridge convert`")
cmds = [k for k, l in enumerate(t) if l.startswith("$ hivebridge ")] + [len(t)]
for a, b in zip(cmds, cmds[1:]):
    args = shlex.split(t[a][len("$ hivebridge "):])
    match(t[a + 1:b], run(args, []), " ".join(args))

for e in errors:
    print("FAIL:", e)
print("README transcripts: %s" % ("ok" if not errors else "%d differ" % len(errors)))
sys.exit(1 if errors else 0)
