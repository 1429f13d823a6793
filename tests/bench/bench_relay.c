/*
 * bench_relay: what the bridge costs.
 *
 *   1. Latency of one UHP command relayed to an external engine (the fake one) by
 *      `hivebridge uhp --engine` on pipes (also with the trace log on) and by
 *      `hivebridge serve` on TCP, against the same hop made by a bare relay
 *      (pipe_relay, and pipe_relay --tcp) and against the engine reached directly:
 *      p50/p99 of ROUNDS round trips of "options", the hops taken in turns, and
 *      hivebridge's own share (its p50 over the bare relay's; also the median of
 *      the round-by-round differences). Then "validmoves", which the bridge
 *      answers itself from its canonical game.
 *   2. Memory per idle session: the daemon's RSS before and after IDLE idle TCP
 *      sessions on the built-in engine.
 *   3. Sessions held at once: more idle sessions up to HOLD, counting those that
 *      got their info block.
 *
 * Every process of it runs on one CPU (the last this one may use), unless
 * BENCH_RELAY_SPREAD is set: then where the scheduler puts the client, the relay and
 * the engine of a hop (the same CPU or two) swings a round trip by 20 us and more
 * from one run to the next on a shared 2-core machine, and the shares with it;
 * on one CPU they repeat within a few tenths of a microsecond.
 *
 * usage: bench_relay [HIVEBRIDGE [FAKE_ENGINE]]   (default: ../hivebridge and
 * ../tools/fake_uhp_engine next to this binary). Figures only, no thresholds.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 20000
#define BLOCK  50     /* round trips in a row on one hop; divides WARMUP and ROUNDS */
#define WARMUP 500
#define IDLE   1000
#define HOLD   5000

struct reader {
	int    fd;
	size_t off, len;
	char   buf[1 << 16];
};

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One line without its newline, NUL-terminated in r->buf; NULL at EOF/error. */
static char *read_line(struct reader *r)
{
	for (;;) {
		char *nl = memchr(r->buf + r->off, '\n', r->len - r->off);
		if (nl) {
			char *line = r->buf + r->off;
			*nl = 0;
			if (nl > line && nl[-1] == '\r')
				nl[-1] = 0;
			r->off = (size_t)(nl - r->buf) + 1;
			return line;
		}
		if (r->off > 0) {
			memmove(r->buf, r->buf + r->off, r->len - r->off);
			r->len -= r->off;
			r->off = 0;
		}
		if (r->len == sizeof r->buf - 1)
			return NULL;
		ssize_t n = read(r->fd, r->buf + r->len, sizeof r->buf - 1 - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		r->len += (size_t)n;
	}
}

/* Reads up to "ok"; the number of lines before it, or -1 at EOF. *err if one was err. */
static int read_reply(struct reader *r, int *err)
{
	int n = 0;
	char *line;
	if (err)
		*err = 0;
	while ((line = read_line(r)) != NULL) {
		if (!strcmp(line, "ok"))
			return n;
		if (err && !strncmp(line, "err", 3))
			*err = 1;
		n++;
	}
	return -1;
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct stats { double p50, p99, mean; };

/* Of ROUNDS times t (left in their order, for paired_median). */
static void stats_of(const double *t, struct stats *st)
{
	static double s[ROUNDS];
	double sum = 0;
	for (size_t i = 0; i < ROUNDS; i++)
		sum += s[i] = t[i];
	qsort(s, ROUNDS, sizeof s[0], cmp_double);
	st->p50 = s[ROUNDS / 2];
	st->p99 = s[ROUNDS * 99 / 100];
	st->mean = sum / ROUNDS;
}

/* One way to reach the fake engine: a client end and the times of its round trips. */
struct hop {
	const char   *name;
	int           wfd;
	struct reader r;
	pid_t         pid;       /* ours to end, or 0 (the daemon's session) */
	pid_t         relay;     /* the relay's process, whose CPU time is counted; or 0 */
	double        cpu;       /* the relay's CPU time per round trip, us */
	double        t[ROUNDS];
	struct stats  st;
};

/* CPU time pid has run, in us (its main thread: /proc/PID/schedstat); -1 if unknown. */
static double cpu_us(pid_t pid)
{
	char path[64];
	unsigned long long ns;
	snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)pid);
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%llu", &ns) == 1;
	if (f)
		fclose(f);
	return ok ? (double)ns / 1e3 : -1;
}

/* One round trip of cmd through h; its time in us, or -1 if h stopped answering. */
static double round_trip(struct hop *h, const char *cmd, size_t len)
{
	double t0 = now_us();
	if (write_all(h->wfd, cmd, len) < 0 || read_reply(&h->r, NULL) < 0)
		return -1;
	return now_us() - t0;
}

/* Times cmd through each of the n hops, ROUNDS times after WARMUP, interleaved in
 * blocks of BLOCK round trips (each block visits every hop, starting from another
 * one each time) so that whatever else the machine does weighs on all of them alike,
 * while each hop's processes stay as warm as a client's steady stream keeps them. */
static int time_interleaved(struct hop **h, int n, const char *cmd)
{
	size_t len = strlen(cmd);
	double cpu0[8];
	if (n > 8)
		return -1;
	for (int k = 0; k < n; k++)
		cpu0[k] = h[k]->relay > 0 ? cpu_us(h[k]->relay) : -1;
	for (int i = 0; i < WARMUP + ROUNDS; i += BLOCK) {
		for (int k = 0; k < n; k++) {
			struct hop *x = h[(i / BLOCK + k) % n];
			for (int j = i; j < i + BLOCK; j++) {
				double t = round_trip(x, cmd, len);
				if (t < 0) {
					fprintf(stderr, "bench_relay: %s stopped answering\n", x->name);
					return -1;
				}
				if (j >= WARMUP)
					x->t[j - WARMUP] = t;
			}
		}
	}
	for (int k = 0; k < n; k++) {
		stats_of(h[k]->t, &h[k]->st);
		double c = cpu0[k] >= 0 ? cpu_us(h[k]->relay) : -1;
		h[k]->cpu = c >= 0 ? (c - cpu0[k]) / (WARMUP + ROUNDS) : -1;
	}
	return 0;
}

/* The median of a's round trips minus b's, round by round: the same round's
 * neighbours share the machine's load, so this shrugs off what the others do. */
static double paired_median(const struct hop *a, const struct hop *b)
{
	static double d[ROUNDS];
	for (int i = 0; i < ROUNDS; i++)
		d[i] = a->t[i] - b->t[i];
	qsort(d, ROUNDS, sizeof d[0], cmp_double);
	return d[ROUNDS / 2];
}

/* Spawns argv with pipes on stdin/stdout (and stderr into *errfd if not NULL). */
static pid_t spawn(char *const argv[], int *to, int *from, int *errfd)
{
	int in[2], out[2], er[2] = { -1, -1 };
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || (errfd && pipe2(er, O_CLOEXEC) < 0))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (errfd) {
			dup2(er[1], 2);
		} else {
			int null = open("/dev/null", O_WRONLY);    /* the engine's chatter */
			if (null >= 0)
				dup2(null, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = out[0];
	if (errfd) {
		close(er[1]);
		*errfd = er[0];
	}
	return pid;
}

static int tcp_connect(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static long rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void print_stats(const char *what, const struct stats *s)
{
	printf("  %-37s p50 %8.1f us   p99 %8.1f us   mean %8.1f us\n", what, s->p50, s->p99, s->mean);
}

/* Keeps this process and those it starts on the last CPU it may use: the CPU, or -1. */
static int pin_one_cpu(void)
{
	cpu_set_t set;
	int cpu = -1;
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpu = i;
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set) < 0 ? -1 : cpu;
}

/* Waits for "listening on 127.0.0.1:PORT" lines on fd; how many of n ports it read. */
static int read_ports(int fd, int *ports, int n)
{
	static struct reader r;
	char *line;
	int got = 0;

	r.fd = fd;
	r.off = r.len = 0;
	while (got < n && (line = read_line(&r)) != NULL)
		if (sscanf(line, "listening on 127.0.0.1:%d", &ports[got]) == 1)
			got++;
	return got;
}

/* Starts argv on pipes as hop h: its info block read, the game set up. */
static int hop_spawn(struct hop *h, char *const argv[], const char *setup)
{
	int from;
	h->pid = spawn(argv, &h->wfd, &from, NULL);
	h->r.fd = from;
	if (h->pid < 0 || read_reply(&h->r, NULL) < 0)
		return -1;
	return write_all(h->wfd, setup, strlen(setup)) < 0 || read_reply(&h->r, NULL) < 0 ? -1 : 0;
}

/* Connects hop h to a TCP port: its info block read, the game set up. */
static int hop_connect(struct hop *h, int port, const char *setup)
{
	h->wfd = h->r.fd = tcp_connect(port);
	if (h->wfd < 0 || read_reply(&h->r, NULL) < 0)
		return -1;
	return write_all(h->wfd, setup, strlen(setup)) < 0 || read_reply(&h->r, NULL) < 0 ? -1 : 0;
}

static void hop_end(struct hop *h)
{
	write_all(h->wfd, "exit\n", 5);
	close(h->wfd);
	if (h->r.fd != h->wfd)
		close(h->r.fd);
	if (h->pid > 0)
		waitpid(h->pid, NULL, 0);
}

int main(int argc, char **argv)
{
	char self[4096], hb[4096], fake[4096], relay[4200], uhp_fake[4200];
	struct rlimit rl;

	snprintf(self, sizeof self, "%s", argv[0]);
	char *dir = dirname(self);
	snprintf(hb, sizeof hb, "%s", argc > 1 ? argv[1] : "");
	snprintf(fake, sizeof fake, "%s", argc > 2 ? argv[2] : "");
	if (!*hb)
		snprintf(hb, sizeof hb, "%s/../hivebridge", dir);
	if (!*fake)
		snprintf(fake, sizeof fake, "%s/../tools/fake_uhp_engine", dir);
	snprintf(relay, sizeof relay, "%s/../tools/pipe_relay", dir);
	snprintf(uhp_fake, sizeof uhp_fake, "uhp:%s", fake);
	if (access(hb, X_OK) < 0 || access(fake, X_OK) < 0 || access(relay, X_OK) < 0) {
		fprintf(stderr, "bench_relay: need %s, %s and %s\n", hb, fake, relay);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	int cpu = getenv("BENCH_RELAY_SPREAD") ? -1 : pin_one_cpu();
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	/* The daemon, for the TCP hop and the idle sessions. */
	char conf[] = "/tmp/bench_relay.XXXXXX";
	int cfd = mkstemp(conf);
	if (cfd < 0)
		return 1;
	dprintf(cfd, "[daemon]\nmax_sessions = %d\nmax_sessions_per_peer = %d\n[engine fake]\ncommand = %s\n"
		"[engine builtin]\nhash_mb = 1\n"
		"[listen uhp]\nport = 0\nengine = fake\n[listen idle]\nport = 0\nengine = builtin\n",
		HOLD + 100, HOLD + 100, fake);
	close(cfd);
	char *dargv[] = { hb, "serve", "--config", conf, NULL };
	int dto, dout, derr, ports[2], rport;
	pid_t dpid = spawn(dargv, &dto, &dout, &derr);
	int nports = dpid < 0 ? 0 : read_ports(derr, ports, 2);
	unlink(conf);
	if (nports < 2) {
		fprintf(stderr, "bench_relay: the daemon did not start\n");
		return 1;
	}

	/* The same fake engine reached six ways, all open at once. */
	static struct hop direct = { .name = "engine direct (pipes)" },
		pipe_bare = { .name = "bare relay (pipes)" },
		pipe_hb = { .name = "hivebridge uhp (pipes)" },
		pipe_log = { .name = "hivebridge uhp (pipes), trace log on" },
		tcp_bare = { .name = "bare relay (TCP)" },
		tcp_hb = { .name = "hivebridge serve (TCP)" };
	char logf[] = "/tmp/bench_relay_log.XXXXXX";
	int lfd = mkstemp(logf);
	if (lfd < 0)
		return 1;
	close(lfd);
	const char *setup = "newgame Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1\n";
	char *fargv[] = { fake, NULL };
	char *rargv[] = { relay, fake, NULL };
	char *hargv[] = { hb, "uhp", "--engine", uhp_fake, NULL };
	char *largv[] = { hb, "uhp", "--engine", uhp_fake, "--log", logf, NULL };
	char *targv[] = { relay, "--tcp", fake, NULL };
	int rto, rfrom, rerr;
	if (hop_spawn(&direct, fargv, setup) < 0 || hop_spawn(&pipe_bare, rargv, setup) < 0 ||
	    hop_spawn(&pipe_hb, hargv, setup) < 0 || hop_spawn(&pipe_log, largv, setup) < 0) {
		fprintf(stderr, "bench_relay: cannot start the engine, pipe_relay or hivebridge uhp\n");
		return 1;
	}
	tcp_bare.pid = spawn(targv, &rto, &rfrom, &rerr);
	if (tcp_bare.pid < 0 || read_ports(rerr, &rport, 1) < 1 || hop_connect(&tcp_bare, rport, setup) < 0 ||
	    hop_connect(&tcp_hb, ports[0], setup) < 0) {
		fprintf(stderr, "bench_relay: cannot reach pipe_relay --tcp or the daemon\n");
		return 1;
	}

	pipe_bare.relay = pipe_bare.pid;
	pipe_hb.relay = pipe_hb.pid;
	pipe_log.relay = pipe_log.pid;
	tcp_bare.relay = tcp_bare.pid;
	tcp_hb.relay = dpid;

	/* 1. "options", relayed to the engine by all but the first. */
	struct hop *all[] = { &direct, &pipe_bare, &pipe_hb, &pipe_log, &tcp_bare, &tcp_hb };
	int nall = (int)(sizeof all / sizeof all[0]);
	if (time_interleaved(all, nall, "options\n") < 0)
		return 1;
	printf("options relayed to the engine, %d round trips each (after %d warm-up), interleaved, ",
	       ROUNDS, WARMUP);
	if (cpu >= 0)
		printf("all on CPU %d:\n", cpu);
	else
		printf("where the scheduler puts them:\n");
	for (int k = 0; k < nall; k++)
		print_stats(all[k]->name, &all[k]->st);
	for (int k = 0; k < nall; k++)
		if (all[k]->cpu >= 0)
			printf("  CPU time of the relay, %-29s %6.1f us a round trip\n", all[k]->name, all[k]->cpu);
	printf("  hivebridge's own CPU time over the bare relay's: pipes %+.1f us, with the log %+.1f us, "
	       "TCP %+.1f us\n", pipe_hb.cpu - pipe_bare.cpu, pipe_log.cpu - pipe_bare.cpu,
	       tcp_hb.cpu - tcp_bare.cpu);
	printf("  added by a bare relay (pipes):       p50 %+8.1f us   p99 %+8.1f us\n",
	       pipe_bare.st.p50 - direct.st.p50, pipe_bare.st.p99 - direct.st.p99);
	printf("  hivebridge's own share, pipes:       p50 %+8.1f us   p99 %+8.1f us   paired median %+6.1f us\n",
	       pipe_hb.st.p50 - pipe_bare.st.p50, pipe_hb.st.p99 - pipe_bare.st.p99,
	       paired_median(&pipe_hb, &pipe_bare));
	printf("  ... with the trace log on, pipes:    p50 %+8.1f us   p99 %+8.1f us   paired median %+6.1f us\n",
	       pipe_log.st.p50 - pipe_bare.st.p50, pipe_log.st.p99 - pipe_bare.st.p99,
	       paired_median(&pipe_log, &pipe_bare));
	printf("  hivebridge's own share, TCP:         p50 %+8.1f us   p99 %+8.1f us   paired median %+6.1f us\n",
	       tcp_hb.st.p50 - tcp_bare.st.p50, tcp_hb.st.p99 - tcp_bare.st.p99,
	       paired_median(&tcp_hb, &tcp_bare));

	/* 2. "validmoves", which hivebridge answers itself from its canonical game. */
	struct hop *vm[] = { &direct, &pipe_hb, &tcp_hb };
	direct.name = "validmoves, engine direct (pipes)";
	pipe_hb.name = "validmoves, hivebridge uhp answers";
	tcp_hb.name = "validmoves, hivebridge serve answers";
	if (time_interleaved(vm, 3, "validmoves\n") < 0)
		return 1;
	for (int k = 0; k < 3; k++)
		print_stats(vm[k]->name, &vm[k]->st);
	hop_end(&direct);
	hop_end(&pipe_bare);
	hop_end(&pipe_hb);
	hop_end(&pipe_log);
	unlink(logf);
	hop_end(&tcp_bare);
	close(rto);
	close(rfrom);
	close(rerr);
	close(tcp_hb.wfd);

	/* 2 and 3. Idle sessions on the built-in engine. */
	static int fds[HOLD];
	static struct reader ir;
	int held = 0;
	usleep(200000);
	long rss0 = rss_kb(dpid);
	for (; held < HOLD; held++) {
		if (held == IDLE) {
			usleep(200000);
			long rss1 = rss_kb(dpid);
			printf("memory: daemon RSS %ld kB idle, %ld kB with %d idle sessions: %.1f kB per session\n",
			       rss0, rss1, IDLE, (double)(rss1 - rss0) / IDLE);
		}
		int err;
		fds[held] = tcp_connect(ports[1]);
		if (fds[held] < 0)
			break;
		ir.fd = fds[held];
		ir.off = ir.len = 0;
		if (read_reply(&ir, &err) < 0 || err) {
			close(fds[held]);
			break;
		}
	}
	printf("sessions held at once: %d of %d tried (daemon RSS %ld kB)\n", held, HOLD, rss_kb(dpid));
	for (int i = 0; i < held; i++)
		close(fds[i]);

	kill(dpid, SIGTERM);
	int status;
	double t0 = now_us();
	waitpid(dpid, &status, 0);
	printf("daemon shutdown after SIGTERM: %.0f ms, status %d\n", (now_us() - t0) / 1000,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
