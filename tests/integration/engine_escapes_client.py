# engine_escapes_client.py: part of engine_escapes.sh.
import sys
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    for bad in (b"\x1b", b"\x07", b"\xc2\x9b"):
        if bad in b:
            i = b.index(bad)
            sys.exit("%s: byte %r at %d: %r" % (f, bad, i, b[max(0, i - 40):i + 10]))
