# redis_seeds.py DIR: the seed replies of fuzz_redis_reply (run by tests/fuzz/run.sh).
import sys
def b(s): return b"$%d\r\n%s\r\n" % (len(s), s)
def a(*xs): return b"*%d\r\n" % len(xs) + b"".join(xs)
def entry(i, *kv): return a(b(i), a(*[b(x) for x in kv]))
line = b'{"game":1,"white":"builtin:depth=1","black":"builtin","engine_a":"white","gamestring":"Base;InProgress;Black[1];wA1","result":"1/2-1/2","reason":"plies","plies":1,"a_score":0.5,"times_ms":[1]}'
seeds = {
    "xread": a(a(b(b"hivebridge:m:results"), a(entry(b"1-1", b"game", b"1", b"worker", b"w1", b"line", line))),
               a(b(b"hivebridge:m:events"), a(entry(b"1-2", b"worker", b"w\x1b[2J", b"text", b"hello"))),
               a(b(b"hivebridge:m:dead"), a(entry(b"1-3", b"game", b"2", b"worker", b"w", b"reason", b"engine", b"id", b"0-2")))),
    "hostile": b"*2\r\n*2\r\n:5\r\n*0\r\n*2\r\n$-1\r\n*1\r\n:3\r\n",
    "pending": a(b":2\r\n", b(b"1-1"), b(b"1-2"), a(a(b(b"w1"), b(b"2")))),
    "hmget": a(b(b"sig"), b"$-1\r\n"),
    "misc": b":1\r\n-OOM command not allowed\r\n+OK\r\n$-1\r\n*-1\r\n",
}
for k, v in seeds.items():
    open(sys.argv[1] + "/" + k, "wb").write(v)
