/*
 * bench_time.c: how late a timed search answers. Prints p50/p99/max of the overrun
 * (answer time minus the time asked for) over varied positions (random plies from the
 * start of every game type):
 *   - through the engine interface (the built-in back end on the search pool, as the
 *     daemon runs it), SEARCHES searches of MOVETIME ms, then with Threads = 2;
 *   - through the real binary (`hivebridge uhp` on pipes), UHP_SEARCHES `bestmove time
 *     00:00:01` (whole seconds: UHP's unit), from the write of the command to its move;
 *   - `bestmove time 00:00:00` (1 ms, the bridge's floor) through both: latency.
 *
 *   bench_time [HIVEBRIDGE] [SEARCHES [MOVETIME [UHP_SEARCHES]]]   defaults: -, 200, 100, 10
 */
#include <errno.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "core/game.h"

#define MAX_SAMPLES 4096

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint64_t rng_next(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545F4914F6CDD1DULL;
}

/* Position i: 4..43 random plies into game type i % 8 (replayed until not over). */
static void position(struct hive_game *g, unsigned i)
{
	static struct hive_move moves[HIVE_MAX_MOVES];
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (i + 1);
	for (;;) {
		hive_game_init(g, i % 8);
		int plies = 4 + (int)(rng_next(&rng) % 40);
		for (int p = 0; p < plies && !hive_game_over(&g->board); p++) {
			size_t n = hive_board_moves(&g->board, moves);
			hive_game_play(g, moves[rng_next(&rng) % n]);
		}
		if (!hive_game_over(&g->board))
			return;
		hive_game_free(g);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n)
{
	if (n <= 0) {
		printf("%-44s no samples\n", what);
		return;
	}
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	int p99 = (int)(0.99 * (n - 1) + 0.5);
	printf("%-44s n=%d  p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms\n", what, n, v[n / 2], v[p99],
	       v[n - 1]);
}

/* ---- the engine interface ---- */

struct run {
	struct event_base *base;
	int done, ok, bad;
	double t_done;
	const struct hive_board *b;
};

static void on_done(void *arg, const struct engine_result *r)
{
	struct run *run = arg;
	struct hive_move legal;
	run->t_done = now_ms();
	run->done = 1;
	if (!run->b)
		return;
	if (r->status == ENGINE_OK && hive_board_find_move(run->b, r->move, &legal))
		run->ok++;
	else
		run->bad++;
	event_base_loopbreak(run->base);
}

static void wait_done(struct run *run)
{
	while (!run->done)
		event_base_loop(run->base, EVLOOP_ONCE);
}

static int set_threads(struct engine *e, struct run *run, const char *n)
{
	const char *argv[] = { "set", "Threads", n };
	run->done = 0;
	if (engine_options(e, 3, argv, on_done, run) < 0)
		return -1;
	wait_done(run);
	return 0;
}

static void bench_interface(int searches, uint64_t movetime, const char *threads)
{
	struct run run = { 0 };
	char *cause = NULL;
	double *late = calloc((size_t)searches, sizeof *late);
	double zero[64];
	int nz = 0;

	run.base = event_base_new();
	struct engine *e = run.base ? engine_builtin_new(run.base, NULL, &cause) : NULL;
	if (!e || !late) {
		fprintf(stderr, "bench_time: engine: %s\n", cause ? cause : "no memory");
		free(cause);
		free(late);
		if (run.base)
			event_base_free(run.base);
		return;
	}
	set_threads(e, &run, threads);
	for (int i = 0; i < searches; i++) {
		struct hive_game g;
		struct engine_limits l = { .movetime_ms = movetime };
		position(&g, (unsigned)i);
		run.b = &g.board;
		run.done = 0;
		double t0 = now_ms();
		if (engine_go(e, &g, &l, NULL, on_done, &run) == 0) {
			wait_done(&run);
			late[i] = run.t_done - t0 - (double)movetime;
		}
		engine_reset(e);
		hive_game_free(&g);
	}
	for (int i = 0; i < (int)(sizeof zero / sizeof *zero); i++) {
		struct hive_game g;
		struct engine_limits l = { .movetime_ms = 1 };
		position(&g, (unsigned)i + 1000);
		run.b = &g.board;
		run.done = 0;
		double t0 = now_ms();
		if (engine_go(e, &g, &l, NULL, on_done, &run) == 0) {
			wait_done(&run);
			zero[nz++] = run.t_done - t0;
		}
		hive_game_free(&g);
	}
	char what[128];
	snprintf(what, sizeof what, "engine: movetime %llu ms overrun, Threads=%s",
		 (unsigned long long)movetime, threads);
	report(what, late, searches);
	snprintf(what, sizeof what, "engine: movetime 1 ms answer, Threads=%s", threads);
	report(what, zero, nz);
	printf("engine: %d legal answers, %d errors or illegal\n", run.ok, run.bad);
	engine_free(e);
	event_base_free(run.base);
	free(late);
}

/* ---- the real binary ---- */

struct child {
	pid_t pid;
	FILE *in, *out;
};

static int child_start(struct child *c, const char *bin)
{
	int to[2], from[2];
	if (pipe(to) < 0 || pipe(from) < 0)
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]); close(to[1]); close(from[0]); close(from[1]);
		execl(bin, bin, "uhp", (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->in = fdopen(to[1], "w");
	c->out = fdopen(from[0], "r");
	return c->in && c->out ? 0 : -1;
}

/* Sends cmd; reads up to "ok"; the first line other than ok goes to first. */
static int child_cmd(struct child *c, const char *cmd, char *first, size_t len)
{
	char line[8192];
	if (first)
		*first = 0;
	fprintf(c->in, "%s\n", cmd);
	fflush(c->in);
	while (fgets(line, sizeof line, c->out)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "ok"))
			return 0;
		if (first && !*first)
			snprintf(first, len, "%s", line);
	}
	return -1;
}

static void bench_binary(const char *bin, int searches)
{
	struct child c;
	char line[8192], gs[4096];
	double *late = calloc((size_t)(searches > 0 ? searches : 1), sizeof *late);
	double zero[32];
	int n = 0, nz = 0, bad = 0;

	if (!late || child_start(&c, bin) < 0) {
		fprintf(stderr, "bench_time: cannot run %s\n", bin);
		free(late);
		return;
	}
	/* The banner ends with ok like every answer. */
	while (fgets(line, sizeof line, c.out) && strcmp(line, "ok\n"))
		;
	for (int i = 0; i < searches + (int)(sizeof zero / sizeof *zero); i++) {
		struct hive_game g;
		int timed = i < searches;
		position(&g, (unsigned)i + 2000);
		hive_game_format(&g, gs, sizeof gs);
		hive_game_free(&g);
		snprintf(line, sizeof line, "newgame %s", gs);
		if (child_cmd(&c, line, NULL, 0) < 0)
			break;
		double t0 = now_ms();
		if (child_cmd(&c, timed ? "bestmove time 00:00:01" : "bestmove time 00:00:00",
			      line, sizeof line) < 0)
			break;
		double t = now_ms() - t0;
		if (!*line || !strncmp(line, "err", 3) || !strncmp(line, "invalidmove", 11))
			bad++;
		if (timed)
			late[n++] = t - 1000.0;
		else
			zero[nz++] = t;
	}
	report("hivebridge uhp: bestmove time 00:00:01 overrun", late, n);
	report("hivebridge uhp: bestmove time 00:00:00 answer", zero, nz);
	printf("hivebridge uhp: %d answers that were not a move\n", bad);
	fclose(c.in);
	fclose(c.out);
	waitpid(c.pid, NULL, 0);
	free(late);
}

int main(int argc, char **argv)
{
	const char *bin = argc > 1 ? argv[1] : "-";
	int searches = argc > 2 ? atoi(argv[2]) : 200;
	uint64_t movetime = argc > 3 ? strtoull(argv[3], NULL, 10) : 100;
	int uhp_searches = argc > 4 ? atoi(argv[4]) : 10;

	signal(SIGPIPE, SIG_IGN);
	if (searches < 1 || searches > MAX_SAMPLES || !movetime) {
		fprintf(stderr, "usage: bench_time [HIVEBRIDGE|-] [SEARCHES [MOVETIME_MS [UHP_SEARCHES]]]\n");
		return 2;
	}
	if (evthread_use_pthreads() < 0)
		return 1;
	double load[3];
	if (getloadavg(load, 3) == 3)
		printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
	/* On a shared machine the overrun is mostly the scheduler's: say how much CPU we got. */
	struct rusage ru;
	double w0 = now_ms();
	bench_interface(searches, movetime, "1");
	getrusage(RUSAGE_SELF, &ru);
	printf("engine: the searches got %.0f %% of one CPU (process CPU time over wall time)\n",
	       100.0 * (ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
			ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3) / (now_ms() - w0));
	bench_interface(searches / 4 > 0 ? searches / 4 : 1, movetime, "2");
	if (strcmp(bin, "-") != 0)
		bench_binary(bin, uhp_searches);
	return 0;
}
