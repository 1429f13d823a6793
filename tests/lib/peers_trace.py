#!/usr/bin/env python3
"""peers_trace.py LOG MIN [WHAT]: every move in a trace log (--log) is the engine's.

Reads the trace log of a bridge that played real engines and fails (status 1,
the offending lines on stdout) unless:
  - every "bridge->engine bestmove ..." was answered by that engine with a move
    line before its "ok" (sessions are told apart by the log's session field);
  - at least MIN such moves were played;
  - nothing in the log says the bridge answered for the engine or stopped it: no
    err/error line to the client, no err from the engine (but for an option it
    does not have), no fallback ("best sendable
    move"), no signal (SIGINT, "killed by signal"), no engine failure or time-out.
WHAT names the test case in the messages.
"""
import re
import sys

BAD = [
    (re.compile(r" bridge->client err\b"), "an err line"),
    (re.compile(r" bridge->client error\b"), "an error line"),
    (re.compile(r" bridge->client .*\"error\""), "an error frame"),
    (re.compile(r"best sendable move|fallback|substitut", re.I), "a fallback answer"),
    (re.compile(r"SIGINT|killed by signal|signal \d", re.I), "a signal"),
    (re.compile(r"engine failed|engine error|crashed|\btimed out\b|\btime-out\b|stalled|lost on time|"
                r"time forfeit", re.I), "an engine failure"),
]


def main():
    path, least = sys.argv[1], int(sys.argv[2])
    what = sys.argv[3] if len(sys.argv) > 3 else path
    problems, waiting, moves, last = [], {}, 0, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            for rx, why in BAD:
                if rx.search(line):
                    problems.append("line %d: %s: %s" % (n, why, line))
            parts = line.split(" ", 3)
            if len(parts) < 4:
                continue
            sid, way, text = parts[1], parts[2], parts[3]
            # An engine may refuse an option the bridge offers (nokamute has
            # no ReportIntermediateBestMoves): any other err is a failure.
            if way == "engine->bridge" and text.startswith("err") and \
                    not last.get(sid, "").startswith("options"):
                problems.append("line %d: the engine said err after %r: %s" % (n, last.get(sid), line))
            if way == "bridge->engine":
                last[sid] = text
                if sid in waiting:
                    problems.append("line %d: %s sent before the engine answered %r" %
                                    (n, text, waiting[sid]))
                    del waiting[sid]
                if text.startswith("bestmove"):
                    waiting[sid] = text
            elif way == "engine->bridge" and sid in waiting:
                if text == "ok":
                    problems.append("line %d: \"ok\" without a move after %r" % (n, waiting[sid]))
                    del waiting[sid]
                elif not text.startswith(("info", "err", "invalidmove")) and text.strip():
                    moves += 1
                    del waiting[sid]
    for sid, cmd in waiting.items():
        problems.append("session %s: %r never answered" % (sid, cmd))
    if moves < least:
        problems.append("%d engine moves, want %d at least" % (moves, least))
    if problems:
        print("FAIL: %s: %s" % (what, path))
        for p in problems[:20]:
            print("  " + p)
        return 1
    print("%s: %d moves, every one the engine's own" % (what, moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
