# ports_busy_holder.py: part of ports_busy.sh.
import socket, sys, time
held = []
for port in (5000, 51337):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        s.listen(1)
        held.append(s)
        state = "held"
    except OSError as e:
        state = "busy already (%s)" % e.strerror
    print("127.0.0.1:%d %s" % (port, state), flush=True)
open(sys.argv[1] + ".tmp", "w").write("ready\n")
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    time.sleep(3600)
