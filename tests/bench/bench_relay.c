/*
 * bench_relay: what the bridge costs.
 *
 *   1. Latency of one UHP command relayed by `hivebridge serve` (TCP) to an external
 *      engine, against the same command sent to that engine directly over pipes:
 *      p50/p99 of ROUNDS round trips of "options" (relayed to the engine) and of
 *      "validmoves" (answered by the bridge itself from its canonical game).
 *   2. Memory per idle session: the daemon's RSS before and after IDLE idle TCP
 *      sessions on the built-in engine.
 *   3. Sessions held at once: more idle sessions up to HOLD, counting those that
 *      got their info block.
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 5000
#define WARMUP 200
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

/* Sends cmd ROUNDS times (after a warm-up) and times each round trip. */
static int time_rounds(int wfd, struct reader *r, const char *cmd, struct stats *st)
{
	static double t[ROUNDS];
	size_t len = strlen(cmd);
	double sum = 0;

	for (int i = 0; i < WARMUP + ROUNDS; i++) {
		double t0 = now_us();
		if (write_all(wfd, cmd, len) < 0 || read_reply(r, NULL) < 0)
			return -1;
		if (i >= WARMUP) {
			t[i - WARMUP] = now_us() - t0;
			sum += t[i - WARMUP];
		}
	}
	qsort(t, ROUNDS, sizeof t[0], cmp_double);
	st->p50 = t[ROUNDS / 2];
	st->p99 = t[ROUNDS * 99 / 100];
	st->mean = sum / ROUNDS;
	return 0;
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

int main(int argc, char **argv)
{
	char self[4096], hb[4096], fake[4096];
	struct stats direct_opt, direct_vm, relay_opt, relay_vm, pipe_opt, pipe_vm, floor_opt;
	struct rlimit rl;

	snprintf(self, sizeof self, "%s", argv[0]);
	char *dir = dirname(self);
	snprintf(hb, sizeof hb, "%s", argc > 1 ? argv[1] : "");
	snprintf(fake, sizeof fake, "%s", argc > 2 ? argv[2] : "");
	if (!*hb)
		snprintf(hb, sizeof hb, "%s/../hivebridge", dir);
	if (!*fake)
		snprintf(fake, sizeof fake, "%s/../tools/fake_uhp_engine", dir);
	if (access(hb, X_OK) < 0 || access(fake, X_OK) < 0) {
		fprintf(stderr, "bench_relay: need %s and %s\n", hb, fake);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	/* 1a. The engine alone. */
	static struct reader er;
	int to, from;
	char *fargv[] = { fake, NULL };
	pid_t fpid = spawn(fargv, &to, &from, NULL);
	er.fd = from;
	if (fpid < 0 || read_reply(&er, NULL) < 0) {
		fprintf(stderr, "bench_relay: cannot start %s\n", fake);
		return 1;
	}
	const char *setup = "newgame Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1\n";
	write_all(to, setup, strlen(setup));
	read_reply(&er, NULL);
	if (time_rounds(to, &er, "options\n", &direct_opt) < 0 ||
	    time_rounds(to, &er, "validmoves\n", &direct_vm) < 0) {
		fprintf(stderr, "bench_relay: the engine stopped answering\n");
		return 1;
	}
	write_all(to, "exit\n", 5);
	close(to);
	close(from);
	waitpid(fpid, NULL, 0);

	/* 1b. The same engine behind the least possible relay: the cost of a hop here. */
	{
		static struct reader fr;
		char relay[4200];
		snprintf(relay, sizeof relay, "%s/../tools/pipe_relay", dir);
		char *rargv[] = { relay, fake, NULL };
		pid_t rpid = access(relay, X_OK) == 0 ? spawn(rargv, &to, &from, NULL) : -1;
		fr.fd = from;
		if (rpid < 0 || read_reply(&fr, NULL) < 0) {
			fprintf(stderr, "bench_relay: cannot start %s\n", relay);
			return 1;
		}
		write_all(to, setup, strlen(setup));
		read_reply(&fr, NULL);
		if (time_rounds(to, &fr, "options\n", &floor_opt) < 0) {
			fprintf(stderr, "bench_relay: pipe_relay stopped answering\n");
			return 1;
		}
		write_all(to, "exit\n", 5);
		close(to);
		close(from);
		waitpid(rpid, NULL, 0);
	}

	/* 1c. The same engine behind `hivebridge uhp --engine` on pipes: like for like. */
	{
		static struct reader pr;
		char *pargv[] = { hb, "uhp", "--engine", fake, NULL };
		pid_t ppid = spawn(pargv, &to, &from, NULL);
		pr.fd = from;
		if (ppid < 0 || read_reply(&pr, NULL) < 0) {
			fprintf(stderr, "bench_relay: cannot start %s uhp\n", hb);
			return 1;
		}
		write_all(to, setup, strlen(setup));
		read_reply(&pr, NULL);
		if (time_rounds(to, &pr, "options\n", &pipe_opt) < 0 ||
		    time_rounds(to, &pr, "validmoves\n", &pipe_vm) < 0) {
			fprintf(stderr, "bench_relay: hivebridge uhp stopped answering\n");
			return 1;
		}
		write_all(to, "exit\n", 5);
		close(to);
		close(from);
		waitpid(ppid, NULL, 0);
	}

	/* 1d. The same engine behind the daemon. */
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
	int dto, dout, derr;
	pid_t dpid = spawn(dargv, &dto, &dout, &derr);
	static struct reader dr;
	dr.fd = derr;
	int ports[2], nports = 0;
	char *line;
	while (nports < 2 && (line = read_line(&dr)) != NULL)
		if (sscanf(line, "listening on 127.0.0.1:%d", &ports[nports]) == 1)
			nports++;
	unlink(conf);
	if (dpid < 0 || nports < 2) {
		fprintf(stderr, "bench_relay: the daemon did not start\n");
		return 1;
	}
	static struct reader tr;
	tr.fd = tcp_connect(ports[0]);
	if (tr.fd < 0 || read_reply(&tr, NULL) < 0) {
		fprintf(stderr, "bench_relay: cannot reach the daemon\n");
		return 1;
	}
	write_all(tr.fd, setup, strlen(setup));
	read_reply(&tr, NULL);
	if (time_rounds(tr.fd, &tr, "options\n", &relay_opt) < 0 ||
	    time_rounds(tr.fd, &tr, "validmoves\n", &relay_vm) < 0) {
		fprintf(stderr, "bench_relay: the relayed session stopped answering\n");
		return 1;
	}
	close(tr.fd);

	printf("relay latency, %d round trips each (after %d warm-up):\n", ROUNDS, WARMUP);
	print_stats("options, engine direct (pipes)", &direct_opt);
	print_stats("options, via a bare pipe relay", &floor_opt);
	print_stats("options, via hivebridge uhp (pipes)", &pipe_opt);
	print_stats("options, via hivebridge serve (TCP)", &relay_opt);
	print_stats("validmoves, engine direct (pipes)", &direct_vm);
	print_stats("validmoves, hivebridge uhp answers", &pipe_vm);
	print_stats("validmoves, hivebridge serve answers", &relay_vm);
	printf("  added by any relay (one more hop):   p50 %+8.1f us   p99 %+8.1f us\n",
	       floor_opt.p50 - direct_opt.p50, floor_opt.p99 - direct_opt.p99);
	printf("  added by relaying (options, pipes):  p50 %+8.1f us   p99 %+8.1f us\n",
	       pipe_opt.p50 - direct_opt.p50, pipe_opt.p99 - direct_opt.p99);
	printf("  hivebridge's own share over the hop: p50 %+8.1f us\n", pipe_opt.p50 - floor_opt.p50);
	printf("  added by relaying (options, TCP):    p50 %+8.1f us   p99 %+8.1f us\n",
	       relay_opt.p50 - direct_opt.p50, relay_opt.p99 - direct_opt.p99);

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
