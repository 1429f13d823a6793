/*
 * bench_time.c: how late a timed search answers. Prints p50/p99/max of the overrun
 * (answer time minus the time asked for) over varied positions (random plies from the
 * start of every game type):
 *   - through the engine interface (the built-in back end on the search pool, as the
 *     daemon runs it), SEARCHES searches of MOVETIME ms, then with Threads = 2; the
 *     overrun split into what the scheduler does and what is ours: wall time from the
 *     deadline to the search seeing it, from there to the search's return, from there to
 *     the answer on the loop thread (engine_builtin_timing);
 *   - our own part, which the load does not change: the core's search alone on this
 *     thread, SEARCHES of MOVETIME ms, timing its stop polls by the thread's CPU clock:
 *     the CPU time it spends from its last poll that saw time left to its return (what
 *     it would overrun on a CPU of its own), and the longest CPU time between two polls;
 *   - a game's worth of clock play (a clock of CLOCK_MS + INC_MS, the 1 min + 1 s of
 *     matches at a tenth of the scale): time used per move against the target, and
 *     how often the hard limit cut a search;
 *   - through the real binary (`hivebridge uhp` on pipes), UHP_SEARCHES `bestmove time
 *     00:00:01` (whole seconds: UHP's unit), from the write of the command to its move;
 *   - `bestmove time 00:00:00` (1 ms, the bridge's floor) through both: latency.
 *
 *   bench_time [HIVEBRIDGE] [SEARCHES [MOVETIME [UHP_SEARCHES [CLOCK_GAMES]]]]
 *   defaults: -, 200, 100, 10, 2
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
#include "tests/bench/bench_util.h"
#include "core/search.h"

#define MAX_SAMPLES 4096


static void report_in(const char *what, double *v, int n, const char *unit)
{
	if (n <= 0) {
		printf("%-44s no samples\n", what);
		return;
	}
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	int p99 = (int)(0.99 * (n - 1) + 0.5);
	printf("%-44s n=%d  p50 %6.2f %s  p99 %6.2f %s  max %6.2f %s\n", what, n, v[n / 2], unit,
	       v[p99], unit, v[n - 1], unit);
}

static void report(const char *what, double *v, int n)
{
	report_in(what, v, n, "ms");
}

/* ---- the engine interface ---- */

struct run {
	struct event_base *base;
	int done, ok, bad;
	double t_done;
	const struct hive_board *b;
	struct hive_move result_move;
};

/* The parts of the overrun of one search, in ms (engine_builtin_timing). */
struct parts {
	double *seen, *unwind, *handoff, *cpu, *share;
	int n;
};

static void parts_add(struct parts *p, struct engine *e, double t_done)
{
	struct engine_builtin_timing t;
	if (engine_builtin_timing(e, &t) < 0 || !t.stopped_ns)
		return;
	p->seen[p->n] = (double)(t.stopped_ns - t.deadline_ns) / 1e6;
	p->unwind[p->n] = (double)(t.searched_ns - t.stopped_ns) / 1e6;
	p->handoff[p->n] = t_done - (double)t.searched_ns / 1e6;
	p->cpu[p->n] = (double)t.cpu_unwind_ns / 1e6;
	p->share[p->n] = 100.0 * (double)t.cpu_ns / (double)(t.searched_ns - t.started_ns);
	p->n++;
}

static void parts_report(struct parts *p, const char *label)
{
	char what[128];
	snprintf(what, sizeof what, "  %s: deadline to seen (wall)", label);
	report(what, p->seen, p->n);
	snprintf(what, sizeof what, "  %s: seen to search return (wall)", label);
	report(what, p->unwind, p->n);
	snprintf(what, sizeof what, "  %s: return to answer (loop, wall)", label);
	report(what, p->handoff, p->n);
	snprintf(what, sizeof what, "  %s: seen to return (search CPU)", label);
	report(what, p->cpu, p->n);
	snprintf(what, sizeof what, "  %s: search CPU over its wall time", label);
	report_in(what, p->share, p->n, "% ");
}

static void on_done(void *arg, const struct engine_result *r)
{
	struct run *run = arg;
	struct hive_move legal;
	run->t_done = bench_now_ms();
	run->done = 1;
	run->result_move = r->move;
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
	char cause[256] = "";
	double *late = calloc((size_t)searches * 6, sizeof *late);
	double zero[64 * 6];
	int nz = 0;
	struct parts pl = { 0 }, pz = { 0 };

	run.base = event_base_new();
	struct engine *e = run.base ? engine_builtin_new(run.base, NULL, cause, sizeof cause) : NULL;
	if (late) {
		pl = (struct parts){ late + searches, late + 2 * searches, late + 3 * searches,
				     late + 4 * searches, late + 5 * searches, 0 };
	}
	pz = (struct parts){ zero + 64, zero + 128, zero + 192, zero + 256, zero + 320, 0 };
	if (!e || !late) {
		fprintf(stderr, "bench_time: engine: %s\n", cause[0] ? cause : "no memory");
		free(late);
		if (run.base)
			event_base_free(run.base);
		return;
	}
	set_threads(e, &run, threads);
	for (int i = 0; i < searches; i++) {
		struct hive_game g;
		struct engine_limits l = { .movetime_ms = movetime };
		bench_position(&g, (unsigned)i, 40);
		run.b = &g.board;
		run.done = 0;
		double t0 = bench_now_ms();
		if (engine_go(e, &g, &l, NULL, on_done, &run) == 0) {
			wait_done(&run);
			late[i] = run.t_done - t0 - (double)movetime;
			parts_add(&pl, e, run.t_done);
		}
		engine_reset(e);
		hive_game_free(&g);
	}
	for (int i = 0; i < 64; i++) {
		struct hive_game g;
		struct engine_limits l = { .movetime_ms = 1 };
		bench_position(&g, (unsigned)i + 1000, 40);
		run.b = &g.board;
		run.done = 0;
		double t0 = bench_now_ms();
		if (engine_go(e, &g, &l, NULL, on_done, &run) == 0) {
			wait_done(&run);
			zero[nz++] = run.t_done - t0;
			parts_add(&pz, e, run.t_done);
		}
		hive_game_free(&g);
	}
	char what[128];
	snprintf(what, sizeof what, "engine: movetime %llu ms overrun, Threads=%s",
		 (unsigned long long)movetime, threads);
	report(what, late, searches);
	parts_report(&pl, "of which");
	snprintf(what, sizeof what, "engine: movetime 1 ms answer, Threads=%s", threads);
	report(what, zero, nz);
	parts_report(&pz, "of which");
	printf("engine: %d legal answers, %d errors or illegal\n", run.ok, run.bad);
	engine_free(e);
	event_base_free(run.base);
	free(late);
}

/* ---- the core alone, by the search thread's CPU clock ---- */

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct poll_clock {
	double deadline;     /* CLOCK_MONOTONIC, ms */
	double cpu_prev;     /* thread CPU at the last poll */
	double cpu_ok;       /* ... at the last poll that saw time left */
	double gap_max;      /* the longest CPU time between two polls */
};

static int poll_clock_stop(void *arg)
{
	struct poll_clock *p = arg;
	double c = cpu_ms();
	if (c - p->cpu_prev > p->gap_max)
		p->gap_max = c - p->cpu_prev;
	p->cpu_prev = c;
	if (bench_now_ms() < p->deadline) {
		p->cpu_ok = c;
		return 0;
	}
	return 1;
}

static void bench_core(int searches, uint64_t movetime)
{
	struct hive_search *s = hive_search_new((size_t)16 << 20);
	double *ours = calloc((size_t)searches * 2, sizeof *ours), *gap = ours ? ours + searches : NULL;
	int n = 0;

	if (!s || !ours) {
		fprintf(stderr, "bench_time: no memory\n");
		hive_search_free(s);
		free(ours);
		return;
	}
	for (int i = 0; i < searches; i++) {
		struct hive_game g;
		struct poll_clock pc = { 0 };
		struct hive_search_limits l = { .stop = poll_clock_stop, .stop_arg = &pc };
		struct hive_move best;
		bench_position(&g, (unsigned)i, 40);
		hive_search_clear(s);
		pc.cpu_prev = pc.cpu_ok = cpu_ms();
		pc.deadline = bench_now_ms() + (double)movetime;
		if (hive_search_run(s, &g.board, &l, &best, NULL) == 0 && bench_now_ms() >= pc.deadline) {
			ours[n] = cpu_ms() - pc.cpu_ok;
			gap[n++] = pc.gap_max;
		}
		hive_game_free(&g);
	}
	char what[128];
	snprintf(what, sizeof what, "core: movetime %llu ms, ours: CPU past deadline",
		 (unsigned long long)movetime);
	report(what, ours, n);
	report("core: longest CPU time between stop polls", gap, n);
	hive_search_free(s);
	free(ours);
}

/* ---- clock play ---- */

#define CLOCK_MS   6000
#define INC_MS     100
#define CLOCK_PLIES 80

/* Self-play games from varied openings on a clock, as `match --clock` keeps it. */
static void bench_clock(int games)
{
	struct run run = { 0 };
	char cause[256] = "";
	int cap = games * CLOCK_PLIES, n = 0, cut = 0, flags = 0;
	double *used = calloc((size_t)cap * 2, sizeof *used), *ratio = used ? used + cap : NULL;
	double spent = 0, wall = 0;

	run.base = event_base_new();
	struct engine *e = run.base ? engine_builtin_new(run.base, NULL, cause, sizeof cause) : NULL;
	if (!e || !used) {
		fprintf(stderr, "bench_time: engine: %s\n", cause[0] ? cause : "no memory");
		free(used);
		if (run.base)
			event_base_free(run.base);
		return;
	}
	for (int gi = 0; gi < games; gi++) {
		struct hive_game g;
		int64_t clock[2] = { CLOCK_MS, CLOCK_MS };
		bench_position(&g, (unsigned)gi + 3000, 40);
		engine_reset(e);
		for (int ply = 0; ply < CLOCK_PLIES && !hive_game_over(&g.board); ply++) {
			int side = hive_side_to_move(&g.board);
			struct engine_limits l = { 0 };
			struct engine_builtin_timing t;
			for (int c = 0; c < 2; c++) {
				l.time_ms[c] = clock[c] > 0 ? (uint64_t)clock[c] : 1;
				l.inc_ms[c] = INC_MS;
			}
			uint64_t target = engine_limits_budget(&l, side);
			run.b = &g.board;
			run.done = 0;
			int ok0 = run.ok;
			double t0 = bench_now_ms();
			if (engine_go(e, &g, &l, NULL, on_done, &run) < 0)
				break;
			wait_done(&run);
			double u = run.t_done - t0;
			if (run.ok == ok0)
				break;
			if (engine_builtin_timing(e, &t) == 0 && t.stopped_ns)
				cut++;
			if (u > (double)clock[side]) {
				flags++;
				break;
			}
			clock[side] += INC_MS - (int64_t)(u + 0.5);
			used[n] = u;
			ratio[n++] = u / (double)target;
			spent += u;
			wall += (double)target;
			struct hive_move m;
			if (!hive_board_find_move(&g.board, run.result_move, &m) ||
			    hive_game_play(&g, m) != HIVE_OK)
				break;
		}
		hive_game_free(&g);
	}
	char what[128];
	snprintf(what, sizeof what, "clock %d+%d: ms used a move", CLOCK_MS, INC_MS);
	report(what, used, n);
	snprintf(what, sizeof what, "clock %d+%d: used over target", CLOCK_MS, INC_MS);
	report_in(what, ratio, n, "x ");
	printf("clock %d+%d: %d moves in %d games, %.0f %% of the targets' sum used, %d cut by "
	       "the hard limit, %d lost on time\n", CLOCK_MS, INC_MS, n, games,
	       wall > 0 ? 100.0 * spent / wall : 0.0, cut, flags);
	engine_free(e);
	event_base_free(run.base);
	free(used);
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
		bench_position(&g, (unsigned)i + 2000, 40);
		hive_game_format(&g, gs, sizeof gs);
		hive_game_free(&g);
		snprintf(line, sizeof line, "newgame %s", gs);
		if (child_cmd(&c, line, NULL, 0) < 0)
			break;
		double t0 = bench_now_ms();
		if (child_cmd(&c, timed ? "bestmove time 00:00:01" : "bestmove time 00:00:00",
			      line, sizeof line) < 0)
			break;
		double t = bench_now_ms() - t0;
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
	int clock_games = argc > 5 ? atoi(argv[5]) : 2;

	signal(SIGPIPE, SIG_IGN);
	engine_builtin_timing_cpu(1);
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
	double w0 = bench_now_ms();
	bench_interface(searches, movetime, "1");
	getrusage(RUSAGE_SELF, &ru);
	printf("engine: the searches got %.0f %% of one CPU (process CPU time over wall time)\n",
	       100.0 * (ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
			ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3) / (bench_now_ms() - w0));
	bench_interface(searches / 4 > 0 ? searches / 4 : 1, movetime, "2");
	bench_core(searches, movetime);
	bench_clock(clock_games);
	if (strcmp(bin, "-") != 0)
		bench_binary(bin, uhp_searches);
	return 0;
}
