/*
 * bench_trylobot: what answering Trylobot costs.
 *
 *   1. The bridge's own work per Choose Turn request, in-process, as one connection
 *      of trylobot_front.c does it (front_request): parse (tb_request_parse_next, the
 *      last turn_history kept), replay (tb_replay_sync, the game kept), the check for
 *      two sendable moves before the engine (tb_replay_sendable) and the answer frame
 *      (tb_turn_answer_frame); the fastest of REPEAT passes, in us, and with valgrind
 *      installed in instructions, counted by callgrind on one pass of this binary
 *      (--path-only): the load-independent figure. Then, for comparison, the whole
 *      parse and replay every time, the back end's possible_turns, and the front
 *      end's fallback scan with one-ply scores.
 *   2. Choose Turn requests answered per second by one `hivebridge serve` over one
 *      TCP connection, request-reply (each request sent when the last answer is in,
 *      as the Trylobot core does), the built-in engine searching to a fixed depth
 *      (listener key depth), with p50/p99 latency; the last line puts the goal's two
 *      figures side by side. Depth 1 runs again with the daemon's loop polling after
 *      each answer (busy_poll_us 50, 100, 200), and once with the client and the
 *      daemon held to one CPU: the differences are what idle CPUs cost in wake-ups
 *      (much, on a VM).
 *
 * The requests come from random games (fixed seed) of Base and Base+MLP, every ply
 * up to PLIES. usage: bench_trylobot [--in-process] [HIVEBRIDGE] (--in-process: no
 * daemon; HIVEBRIDGE defaults to ../hivebridge next to this binary). Figures only,
 * no thresholds.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"
#include "core/search.h"

#define GAMES   6      /* per game type */
#define PLIES   60
#define REPEAT  5      /* in-process passes over all requests */
#define DAEMON_PASSES 3 /* passes over them through the daemon */

struct reqs {
	char  **json;     /* owned JSON texts */
	size_t  n, cap;
};

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int reqs_add(struct reqs *r, char *json)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		char **v = realloc(r->json, cap * sizeof *v);
		if (!v)
			return -1;
		r->json = v;
		r->cap = cap;
	}
	r->json[r->n++] = json;
	return 0;
}

/* Random games; a request for every position with a choice. */
static int make_requests(struct reqs *out)
{
	static const unsigned types[2] = { 0, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P };
	uint64_t rng = 12345;
	char err[TB_ERR_MAX];

	for (int ti = 0; ti < 2; ti++) {
		for (int gi = 0; gi < GAMES; gi++) {
			struct tb_replay rp;
			tb_replay_init(&rp, types[ti]);
			for (int ply = 0; ply < PLIES && !hive_game_over(&rp.game.board); ply++) {
				struct tb_request rq;
				memset(&rq, 0, sizeof rq);
				rq.type = TB_REQ_CHOOSE_TURN;
				rq.request_id = "bench";
				rq.game_id = "bench";
				rq.request_timestamp = 1795317225823;
				if (tb_replay_state(&rp, &rq.state, err, sizeof err) < 0) {
					fprintf(stderr, "bench: %s\n", err);
					tb_replay_free(&rp);
					return -1;
				}
				cJSON *j = tb_request_json(&rq);
				char *text = j ? cJSON_PrintUnformatted(j) : NULL;
				cJSON_Delete(j);
				/* Random play among the turns the real core would accept. */
				struct tb_turn pick;
				size_t k = 0;
				for (size_t i = 0; i < rq.state.possible.n; i++)
					if (rq.state.possible.v[i].type != TB_ABILITY && rng_next(&rng) % ++k == 0)
						pick = rq.state.possible.v[i];
				tb_state_free(&rq.state);
				if (!text || reqs_add(out, text) < 0 || !k ||
				    tb_replay_play_turn(&rp, &pick, err, sizeof err) < 0) {
					free(text);
					tb_replay_free(&rp);
					break;
				}
			}
			tb_replay_free(&rp);
		}
	}
	return 0;
}

/* The front end's sendable check and one-ply scores (as trylobot_front.c does). */
static size_t sendable_scan(const struct tb_replay *rp, const struct tb_turns *possible, int *best)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(&rp->game.board, moves), count = 0;
	for (size_t i = 0; i < n; i++) {
		struct tb_turn t;
		if (tb_replay_answer(rp, possible, moves[i], &t, NULL, 0) != 1)
			continue;
		struct hive_board b = rp->game.board;
		struct hive_undo u;
		hive_board_do(&b, moves[i], &u);
		int s = -hive_evaluate(&b);
		if (!count || s > *best)
			*best = s;
		count++;
	}
	return count;
}

/* The connection's state between requests, as trylobot_front.c keeps it. */
struct conn {
	struct tb_parse_cache pc;
	struct tb_replay      rp;
	int                   have;
};

struct stage_us {
	double parse, replay, check, format;
};

/*
 * One Choose Turn as trylobot_front.c answers it, up to the engine: parse (the last
 * history kept), replay (the game kept), the sendable check, and the answer frame
 * (here the first sendable move's). Not inlined: callgrind counts its instructions
 * (--toggle-collect=front_request, see --instructions).
 */
__attribute__((noipa)) static int front_request(struct conn *c, const char *json, size_t len,
						   struct stage_us *us, long *sink)
{
	struct tb_request rq;
	struct tb_turn t;
	char err[TB_ERR_MAX];
	double t0 = now_us();
	if (tb_request_parse_next(json, len, &rq, &c->pc, err, sizeof err) < 0) {
		fprintf(stderr, "bench: parse: %s\n", err);
		return -1;
	}
	double t1 = now_us();
	c->have = tb_replay_sync(&c->rp, c->have, &rq.state, err, sizeof err) == 0;
	if (!c->have) {
		fprintf(stderr, "bench: replay: %s\n", err);
		tb_request_free(&rq);
		return -1;
	}
	double t2 = now_us();
	memset(&t, 0, sizeof t);
	size_t ns = tb_replay_sendable(&c->rp, &rq.state.possible, &t, 2);
	double t3 = now_us();
	size_t flen = 0;
	free(tb_turn_answer_frame(&t, &rq, &flen));
	tb_request_free(&rq);
	double t4 = now_us();
	us->parse += t1 - t0;
	us->replay += t2 - t1;
	us->check += t3 - t2;
	us->format += t4 - t3;
	*sink += (long)(ns + flen);
	return 0;
}

/*
 * passes: 0 for the figures (REPEAT passes of the connection's path alone, so that the
 * comparisons do not leave the allocator otherwise than a connection does, then one of
 * the comparisons), 1 for callgrind (one pass of the path only). The path's mean per
 * request (the fastest pass: the machine is shared) into *per_request_us.
 */
static void bench_inprocess(const struct reqs *r, int path_only, double *per_request_us)
{
	struct conn c;
	struct stage_us best = { 0 };
	double best_total = 0;
	size_t n = 0;
	long sink = 0;

	memset(&c, 0, sizeof c);
	for (int pass = 0; pass < (path_only ? 1 : REPEAT); pass++) {
		struct stage_us us = { 0 };
		n = 0;
		for (size_t i = 0; i < r->n; i++)
			n += front_request(&c, r->json[i], strlen(r->json[i]), &us, &sink) == 0;
		double total = us.parse + us.replay + us.check + us.format;
		if (!pass || total < best_total) {
			best = us;
			best_total = total;
		}
	}
	if (c.have)
		tb_replay_free(&c.rp);
	tb_parse_cache_free(&c.pc);
	if (!n)
		return;
	*per_request_us = best_total / (double)n;
	printf("in-process, per Choose Turn request (%zu requests, fastest of %d passes):\n", n,
	       path_only ? 1 : REPEAT);
	printf("  parse            %8.2f us  (the connection's last history kept)\n", best.parse / (double)n);
	printf("  replay           %8.2f us  (the connection's game kept)\n", best.replay / (double)n);
	printf("  sendable check   %8.2f us  (up to two sendable moves, before the engine)\n",
	       best.check / (double)n);
	printf("  format answer    %8.2f us\n", best.format / (double)n);
	printf("  front end total  %8.2f us  (checksum %ld)\n", *per_request_us, sink % 1000);
	if (path_only)
		return;

	/* The comparisons: what the kept state saves, the back end's and the fallback's work. */
	double t_whole = 0, t_full = 0, t_possible = 0, t_send = 0;
	size_t listed = 0, sendable = 0, m = 0;
	char err[TB_ERR_MAX];
	for (size_t i = 0; i < r->n; i++) {
		struct tb_request rq;
		struct tb_replay full;
		struct tb_turns mine = { 0 };
		int best1 = 0;
		double t0 = now_us();
		if (tb_request_parse(r->json[i], strlen(r->json[i]), &rq, err, sizeof err) < 0)
			continue;
		double t1 = now_us();
		if (tb_replay_load(&full, &rq.state, err, sizeof err) < 0) {
			tb_request_free(&rq);
			continue;
		}
		double t2 = now_us();
		tb_replay_possible(&full, &mine, err, sizeof err);
		double t3 = now_us();
		sendable += sendable_scan(&full, &rq.state.possible, &best1);
		double t4 = now_us();
		t_whole += t1 - t0;
		t_full += t2 - t1;
		t_possible += t3 - t2;
		t_send += t4 - t3;
		listed += mine.n;
		sink += best1;
		m++;
		tb_turns_free(&mine);
		tb_replay_free(&full);
		tb_request_free(&rq);
	}
	if (!m)
		return;
	printf("compared (mean %.0f listed turns, %.0f sendable):\n", (double)listed / (double)m,
	       (double)sendable / (double)m);
	printf("  parse all of it  %8.2f us  (tb_request_parse: the whole history)\n", t_whole / (double)m);
	printf("  replay all of it %8.2f us  (tb_replay_load: from the start)\n", t_full / (double)m);
	printf("  possible_turns   %8.2f us  (built for a module by the back end)\n", t_possible / (double)m);
	printf("  sendable+1-ply   %8.2f us  (front end: only when the engine's move cannot be sent)\n",
	       t_send / (double)m);
}

/*
 * The daemon.
 */

static pid_t spawn_daemon(const char *bin, const char *conf, int depth, int *port)
{
	int pfd[2];
	if (pipe(pfd) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execl(bin, bin, "serve", "--config", conf, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	FILE *f = fdopen(pfd[0], "r");
	char line[256];
	*port = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned p;
		if (strstr(line, "(trylobot)") && sscanf(line, "listening on 127.0.0.1:%u", &p) == 1) {
			*port = (int)p;
			break;
		}
	}
	/* Keep the pipe open (the daemon may log to it); it closes with us. */
	return pid;
}

static int read_frame(int fd, struct tb_reader *rd, char *buf, size_t cap, size_t *off, size_t *len)
{
	for (;;) {
		if (*off == *len) {
			ssize_t n = recv(fd, buf, cap, 0);
			if (n <= 0)
				return -1;
			*off = 0;
			*len = (size_t)n;
		}
		size_t used;
		int rc = tb_reader_push(rd, buf + *off, *len - *off, &used);
		*off += used;
		if (rc != 0)
			return rc;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Requests/s (0 on failure), one request in flight at a time as the Trylobot core
 * sends them: each is sent when the last answer is in (request-reply). */
static double bench_daemon(const char *bin, const char *dir, const struct reqs *r, int depth, unsigned busy_us,
			   double inproc_us, const char *where)
{
	char conf[4200];
	int port, fd, one = 1;
	snprintf(conf, sizeof conf, "%s/bench_trylobot.conf", dir);
	FILE *f = fopen(conf, "w");
	if (!f) {
		perror(conf);
		return 0;
	}
	fprintf(f, "[daemon]\nbusy_poll_us = %u\n[engine builtin]\nhash_mb = 16\n[listen uhp]\nport = 0\n"
		"[listen tb]\nprotocol = trylobot\nport = 0\nengine = builtin\ndepth = %d\n", busy_us, depth);
	fclose(f);
	pid_t pid = spawn_daemon(bin, conf, depth, &port);
	if (pid < 0 || !port) {
		fprintf(stderr, "bench: the daemon did not start\n");
		if (pid > 0)
			kill(pid, SIGKILL);
		return 0;
	}
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		perror("bench: connect");
		kill(pid, SIGKILL);
		return 0;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

	struct tb_reader rd;
	char buf[65536];
	size_t off = 0, len = 0, done = 0;
	/* The requests DAEMON_PASSES times over (each pass starts the games again). */
	size_t total = r->n * DAEMON_PASSES;
	double *lat = calloc(total, sizeof *lat);
	tb_reader_init(&rd, 0);
	double t0 = now_us();
	for (size_t k = 0; lat && k < total; k++) {
		size_t i = k % r->n;
		size_t flen;
		char *frame = tb_frame_encode(r->json[i], strlen(r->json[i]), &flen);
		double s = now_us();
		if (!frame || send(fd, frame, flen, MSG_NOSIGNAL) != (ssize_t)flen ||
		    read_frame(fd, &rd, buf, sizeof buf, &off, &len) != 1) {
			free(frame);
			fprintf(stderr, "bench: request %zu failed\n", i);
			break;
		}
		free(frame);
		lat[done++] = now_us() - s;
	}
	double elapsed = now_us() - t0;
	close(fd);
	tb_reader_free(&rd);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	if (!done) {
		free(lat);
		return 0;
	}
	double mean = elapsed / (double)done;
	qsort(lat, done, sizeof *lat, cmp_double);
	char busy[48] = "";
	if (busy_us)
		snprintf(busy, sizeof busy, " (busy_poll_us = %u)", busy_us);
	printf("daemon%s%s, built-in engine at depth %d, one connection, request-reply: %zu requests in %.2f s = %.0f requests/s; "
	       "latency p50 %.2f ms, p99 %.2f ms; bridge's own share %.1f%%\n",
	       where, busy, depth, done, elapsed / 1e6, done / (elapsed / 1e6), lat[done / 2] / 1e3,
	       lat[done * 99 / 100] / 1e3, inproc_us > 0 ? 100.0 * inproc_us / mean : 0);
	free(lat);
	return done / (elapsed / 1e6);
}

/*
 * Instructions per request of front_request, counted by callgrind on one pass of this
 * binary (--path-only): the load-independent figure (the machine is shared). With
 * the fastest pass's time it gives the instructions per microsecond of this machine.
 */
static double print_instructions(const char *self, size_t nreq, double per_request_us)
{
	char out[] = "/tmp/bench_trylobot.cg.XXXXXX", line[256];
	int fd = mkstemp(out), status = 0;
	if (fd < 0)
		return 0;
	close(fd);
	char arg[64 + sizeof out];
	snprintf(arg, sizeof arg, "--callgrind-out-file=%s", out);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("valgrind", "valgrind", "--tool=callgrind", "--toggle-collect=front_request*", arg,
		       self, "--path-only", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("instructions: not counted (valgrind %s)\n",
		       WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "is not installed" : "failed");
		unlink(out);
		return 0;
	}
	FILE *f = fopen(out, "r");
	double ir = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "totals: %lf", &ir) == 1)
			break;
	if (f)
		fclose(f);
	unlink(out);
	if (ir <= 0 || !nreq)
		return 0;
	double per = ir / (double)nreq;
	printf("instructions per Choose Turn (callgrind, front_request): %.1fk; at the %.0f instructions/us "
	       "of the fastest pass above, %.2f us\n", per / 1e3,
	       per_request_us > 0 ? per / per_request_us : 0, per_request_us);
	return per;
}

int main(int argc, char **argv)
{
	char bin[4200], dir[4000];
	struct reqs r = { 0 };
	double inproc = 0, ir = 0;

	const char *argv0 = argv[0];
	signal(SIGPIPE, SIG_IGN);
	char self[4000];
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(dir, sizeof dir, "%s", dirname(self));
	/* --in-process: no daemon; --path-only: one pass of front_request only (what
	 * callgrind runs for the instruction count). */
	int inproc_only = 0, path_only = 0;
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--in-process"))
			inproc_only = 1;
		else if (!strcmp(argv[1], "--path-only"))
			inproc_only = path_only = 1;
		else {
			fprintf(stderr, "usage: bench_trylobot [--in-process] [HIVEBRIDGE]\n");
			return 2;
		}
		argc--;
		argv++;
	}
	if (argc > 1)
		snprintf(bin, sizeof bin, "%s", argv[1]);
	else
		snprintf(bin, sizeof bin, "%s/../hivebridge", dir);
	if (make_requests(&r) < 0 || !r.n) {
		fprintf(stderr, "bench: cannot build the requests\n");
		return 1;
	}
	bench_inprocess(&r, path_only, &inproc);
	if (path_only)
		inproc_only = 1;
	else
		ir = print_instructions(argv0, r.n, inproc);
	char ir_note[64] = "";
	if (ir > 0)
		snprintf(ir_note, sizeof ir_note, " (%.1fk instructions)", ir / 1e3);
	char tmpdir[] = "/tmp/bench_trylobot.XXXXXX";
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	double rps[3] = { 0 }, rps_one = 0;
	for (int depth = 1; depth <= 2 && !inproc_only; depth++)
		rps[depth] = bench_daemon(bin, tmpdir, &r, depth, 0, inproc, "");
	/* Depth 1 with the loop polling after each answer ([daemon] busy_poll_us), so
	 * that a request finds it awake: 100 is the figure the goal line gives. */
	double rps_busy = 0;
	for (unsigned us = 50; us <= 200 && !inproc_only; us *= 2) {
		double x = bench_daemon(bin, tmpdir, &r, 1, us, inproc, "");
		if (us == 100)
			rps_busy = x;
	}
	/* Depth 1 again with this client and the daemon on one CPU: a virtual CPU that
	 * goes idle between requests costs a wake-up on each side, which this shows. */
	cpu_set_t all, one;
	if (!inproc_only && sched_getaffinity(0, sizeof all, &all) == 0 && CPU_COUNT(&all) > 1) {
		int cpu = 0;
		while (!CPU_ISSET(cpu, &all))
			cpu++;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) == 0) {
			rps_one = bench_daemon(bin, tmpdir, &r, 1, 0, inproc, " and client on one CPU");
			sched_setaffinity(0, sizeof all, &all);
		}
	}
	char busy_note[64] = "", one_note[64] = "";
	if (rps_busy > 0)
		snprintf(busy_note, sizeof busy_note, ", %.0f with busy_poll_us = 100", rps_busy);
	if (rps_one > 0)
		snprintf(one_note, sizeof one_note, ", %.0f with the client on the daemon's CPU", rps_one);
	if (!inproc_only)
		printf("Trylobot goal: bridge's own work %.2f us per Choose Turn%s; depth 1, one connection: "
		       "%.0f requests/s (request-reply)%s%s\n", inproc, ir_note, rps[1], busy_note, one_note);
	char conf[4200];
	snprintf(conf, sizeof conf, "%s/bench_trylobot.conf", tmpdir);
	unlink(conf);
	rmdir(tmpdir);
	for (size_t i = 0; i < r.n; i++)
		cJSON_free(r.json[i]);
	free(r.json);
	return 0;
}
