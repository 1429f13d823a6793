/*
 * bench_peer_time.c: `bestmove time 00:00:01` to nokamute through the bridge and
 * run directly, side by side. For N varied positions (random plies from the start of
 * every game type), each is asked of both in turn:
 *   - `hivebridge uhp --engine "NOKAMUTE uhp --num-threads=1"` (this build's binary);
 *   - `NOKAMUTE uhp --num-threads=1` on pipes of its own;
 * and prints how late the answers are (from the write of the command to the read of
 * the move, less the second asked: p50, p99, max), the same counted from the write
 * of the newgame before it (the bridge sends the engine its game when a search is
 * asked, and nokamute takes 0.1-0.3 s over a newgame), and how many were nokamute's
 * moves (a legal move, not an err and not a signal's).
 *
 *   bench_peer_time       env: BENCH_PEER_N (200), PEERS (../shared/peers from the
 *                         repository's top), HIVEBRIDGE (next to this binary's folder)
 *
 * Fails (status 1), saying so, when nokamute is missing or an answer was not a move.
 */
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "tests/bench/bench_util.h"

#define LINE_MAX_LEN 8192


struct side {
	const char *name;
	char *const *argv;
	pid_t pid;
	FILE *in, *out;
	double *late, *late_ng;     /* from bestmove's write; from newgame's */
	int n, moves, restarts;
	char last_bad[160];
};

static int side_start(struct side *s)
{
	int to[2], from[2];
	if (pipe(to) < 0 || pipe(from) < 0)
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]); close(to[1]); close(from[0]); close(from[1]);
		execv(s->argv[0], s->argv);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	s->in = fdopen(to[1], "w");
	s->out = fdopen(from[0], "r");
	if (!s->in || !s->out)
		return -1;
	/* The info block ends with ok like every answer. */
	char line[LINE_MAX_LEN];
	while (fgets(line, sizeof line, s->out))
		if (!strcmp(line, "ok\n"))
			return 0;
	return -1;
}

static void side_stop(struct side *s)
{
	if (!s->in)
		return;
	fputs("exit\n", s->in);
	fclose(s->in);
	fclose(s->out);
	s->in = s->out = NULL;
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
}

/* Sends cmd; reads up to "ok"; the last line other than ok goes to last. -1 when
 * the program's output ended. */
static int side_cmd(struct side *s, const char *cmd, char *last, size_t len)
{
	char line[LINE_MAX_LEN];
	if (last)
		*last = 0;
	fprintf(s->in, "%s\n", cmd);
	fflush(s->in);
	while (fgets(line, sizeof line, s->out)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!strcmp(line, "ok"))
			return 0;
		if (last)
			snprintf(last, len, "%s", line);
	}
	return -1;
}

/* One timed request on g; the answer is counted if it is a legal move. */
static void side_ask(struct side *s, const struct hive_game *g, const char *gs)
{
	char cmd[LINE_MAX_LEN + 16], ans[LINE_MAX_LEN], err[128];
	struct hive_move m;

	if (!s->in && side_start(s) < 0) {
		snprintf(s->last_bad, sizeof s->last_bad, "cannot start %s", s->argv[0]);
		return;
	}
	snprintf(cmd, sizeof cmd, "newgame %s", gs);
	double t_ng = bench_now_ms(), t0;
	if (side_cmd(s, cmd, NULL, 0) == 0) {
		t0 = bench_now_ms();
		if (side_cmd(s, "bestmove time 00:00:01", ans, sizeof ans) == 0) {
			double t = bench_now_ms();
			s->late_ng[s->n] = t - t_ng - 1000.0;
			s->late[s->n++] = t - t0 - 1000.0;
			if (hive_move_parse(&g->board, ans, &m, err, sizeof err) == HIVE_OK)
				s->moves++;
			else
				snprintf(s->last_bad, sizeof s->last_bad, "%.150s", ans);
			return;
		}
	}
	/* Its output ended: it died. Counted as no move; a fresh one for the next. */
	snprintf(s->last_bad, sizeof s->last_bad, "%s ended", s->name);
	s->restarts++;
	side_stop(s);
}

static void late_report(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	if (n > 0) {
		int p99 = (int)(0.99 * (n - 1) + 0.5);
		printf(" %s p50 %7.2f  p99 %7.2f  max %7.2f ms;", what, v[n / 2], v[p99], v[n - 1]);
	}
}

static void side_report(struct side *s, int asked)
{
	printf("  %-32s", s->name);
	late_report("late", s->late, s->n);
	late_report("with newgame", s->late_ng, s->n);
	printf(" nokamute's moves %d/%d", s->moves, asked);
	if (s->restarts)
		printf(" (%d ended)", s->restarts);
	if (s->moves < asked && s->last_bad[0])
		printf("  last: %s", s->last_bad);
	printf("\n");
}

int main(int argc, char **argv)
{
	char top[PATH_MAX], nk[PATH_MAX + 64], hb[PATH_MAX + 64], engine[PATH_MAX + 128];
	const char *env;
	int n = 200;

	(void)argc;
	if ((env = getenv("BENCH_PEER_N")) && atoi(env) > 0)
		n = atoi(env);
	if (!getcwd(top, sizeof top))
		return 1;
	if ((env = getenv("PEERS")))
		snprintf(nk, sizeof nk, "%s/nokamute", env);
	else
		snprintf(nk, sizeof nk, "%s/../shared/peers/nokamute", top);
	if ((env = getenv("HIVEBRIDGE"))) {
		snprintf(hb, sizeof hb, "%s", env);
	} else {
		char self[PATH_MAX];
		snprintf(self, sizeof self, "%s", argv[0]);
		snprintf(hb, sizeof hb, "%s/../hivebridge", dirname(self));
	}
	printf("bestmove time 00:00:01 to nokamute, through the bridge and directly, %d positions\n", n);
	if (access(nk, X_OK) < 0) {
		printf("bench_peer_time: no nokamute at %s (set PEERS): cannot measure\n", nk);
		return 1;
	}
	if (access(hb, X_OK) < 0) {
		printf("bench_peer_time: no hivebridge at %s (set HIVEBRIDGE): cannot measure\n", hb);
		return 1;
	}
	snprintf(engine, sizeof engine, "%s uhp --num-threads=1", nk);
	char *bridge_argv[] = { hb, "uhp", "--engine", engine, NULL };
	char *direct_argv[] = { nk, "uhp", "--num-threads=1", NULL };
	struct side sides[2] = {
		{ .name = "through hivebridge uhp --engine", .argv = bridge_argv },
		{ .name = "nokamute directly", .argv = direct_argv },
	};
	signal(SIGPIPE, SIG_IGN);
	for (int k = 0; k < 2; k++)
		if (!(sides[k].late = calloc((size_t)n, sizeof *sides[k].late)) ||
		    !(sides[k].late_ng = calloc((size_t)n, sizeof *sides[k].late_ng)))
			return 1;
	for (int i = 0; i < n; i++) {
		struct hive_game g;
		char gs[LINE_MAX_LEN];
		bench_position(&g, (unsigned)i + 3000, 20);
		hive_game_format(&g, gs, sizeof gs);
		/* In turn, so that both see the same load. */
		for (int k = 0; k < 2; k++)
			side_ask(&sides[(k + i) % 2], &g, gs);
		hive_game_free(&g);
	}
	int status = 0;
	for (int k = 0; k < 2; k++) {
		side_report(&sides[k], n);
		side_stop(&sides[k]);
		if (sides[k].moves < n)
			status = 1;
		free(sides[k].late);
		free(sides[k].late_ng);
	}
	if (status)
		printf("bench_peer_time: not every answer was nokamute's move\n");
	return status;
}
