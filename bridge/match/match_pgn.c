/*
 * match_pgn.c: `match --pgnout FILE`: every finished game appended as Mzinga's PGN
 * as it ends (bridge/game_record.h: one write with O_APPEND, then fsync), and with
 * --resume the file made to agree with the results file before the match goes on.
 * With --queue, each worker's result as the coordinator accepts it (its moves
 * replayed, its times and scores checked by match_result_check): the streams are
 * the record, so the file is written again from them when a coordinator starts.
 */
#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/game_record.h"
#include "bridge/match/match_int.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"

#define PGN_GAME_START "\n\n[GameType "

/* The game number of one archived game's text (its Round), 0 if it does not read as
 * exactly one game with one. */
static unsigned chunk_round(const char *text, size_t len)
{
	struct hive_record *v;
	size_t n;
	unsigned long round = 0;

	if (hive_records_read(text, len, &v, &n, NULL, 0) < 0)
		return 0;
	const char *r = n == 1 ? hive_record_tag(&v[0], "Round") : NULL;
	if (r) {
		char *end;
		round = strtoul(r, &end, 10);
		if (*end || round > MATCH_MAX_GAMES)
			round = 0;
	}
	hive_records_free(v, n);
	return (unsigned)round;
}

/* The whole file at path into *buf (NULL and 0 when it does not exist); -1 with err. */
static int slurp(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : errbuf_set(err, errlen, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || !(*buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return errbuf_set(err, errlen, "cannot be read");
	}
	while (*len < (size_t)st.st_size) {
		ssize_t r = read(fd, *buf + *len, (size_t)st.st_size - *len);
		if (r <= 0)
			break;
		*len += (size_t)r;
	}
	close(fd);
	(*buf)[*len] = 0;
	return 0;
}

/* Writes len bytes of text as the new file at path: a temporary file, synced, renamed
 * over it, so a crash leaves the old file or the new one. */
static int replace(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	size_t n = strlen(path) + 5;
	char *tmp = malloc(n);
	if (!tmp)
		return errbuf_set(err, errlen, "out of memory");
	snprintf(tmp, n, "%s.new", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len && fsync(fd) == 0;
	int e = errno;
	if (fd >= 0 && close(fd) < 0)
		ok = 0;
	if (ok && rename(tmp, path) < 0)
		ok = 0, e = errno;
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? 0 : errbuf_set(err, errlen, "%s", strerror(e));
}

/* Keeps the file's whole games that the results have (once each), cuts the others:
 * a torn last game, games written just before a kill that the results lack. A game
 * that does not read, before the last, is an error: the file is not ours. */
static int pgnout_resume(struct match *m, char *err, size_t errlen)
{
	char *buf, *out = NULL;
	size_t len, olen = 0;
	unsigned char *seen = NULL;
	unsigned cut = 0;
	int rc = -1;

	if (slurp(m->o.pgnout_path, &buf, &len, err, errlen) < 0)
		return -1;
	if (!len) {
		free(buf);
		return 0;
	}
	out = malloc(len);
	seen = calloc((size_t)m->o.games + 1, 1);
	if (!out || !seen) {
		errbuf_set(err, errlen, "out of memory");
		goto done;
	}
	for (size_t at = 0; at < len;) {
		const char *next = strstr(buf + at, PGN_GAME_START);
		size_t end = next ? (size_t)(next - buf) + 2 : len;
		const char *text = buf + at;
		size_t n = end - at;
		unsigned round = game_record_whole(text, n) ? chunk_round(text, n) : 0;
		if (!round && end < len) {
			errbuf_set(err, errlen, "the game at byte %zu does not read as one of ours", at);
			goto done;
		}
		if (round && (round > m->o.games || (m->done[round] && !seen[round]))) {
			if (round <= m->o.games)
				seen[round] = 1;
			memcpy(out + olen, text, n);
			olen += n;
		} else {
			cut++;
		}
		at = end;
	}
	unsigned missing = 0;
	for (unsigned g = 1; g <= m->o.games; g++)
		missing += m->done[g] && !seen[g];
	if (missing)
		fprintf(stderr, "hivebridge match: %s: %u games of %s are not in it (cut by hand?)\n",
			m->o.pgnout_path, missing, m->o.results_path);
	if (cut) {
		fprintf(stderr, "hivebridge match: %s: %u games cut (torn, or not in %s): played again\n",
			m->o.pgnout_path, cut, m->o.results_path);
		if (replace(m->o.pgnout_path, out, olen, err, errlen) < 0)
			goto done;
	}
	rc = 0;
done:
	free(buf);
	free(out);
	free(seen);
	return rc;
}

int pgnout_open(struct match *m)
{
	char err[256];
	int rc = 0;

	if (!m->o.pgnout_path)
		return 0;
	/* With --queue the streams are the record: the file is written again from them. */
	if (m->o.resume && !m->o.queue) {
		rc = pgnout_resume(m, err, sizeof err);
	} else {
		int fd = open(m->o.pgnout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			rc = errbuf_set(err, sizeof err, "%s", strerror(errno));
		else
			close(fd);
	}
	if (rc < 0)
		fprintf(stderr, "hivebridge %s: %s: %s\n", match_cmd(m), m->o.pgnout_path, err);
	return rc;
}

/* What game g's tags and comments come from, beside its moves. */
struct pgnout_game {
	unsigned    game_no;
	const char *id[2];            /* by colour: the engines' ids, else their labels */
	const char *opening;          /* its GameString, NULL = none */
	int         state;
	const char *reason;
	int         depth[2];         /* by player: an own limit (builtin:depth=N, :movetime=MS), 0 none */
};

/* Appends game g with plies' comments; -1 after saying why. */
static int pgnout_append(struct match *m, const struct pgnout_game *pg, const struct hive_game *g,
			 const struct game_record_plies *plies)
{
	char round[16], site[128] = "", tc[64] = "-", err[512];
	struct referee_seat clock = {
		.clock_ms = m->o.clock_ms, .inc_ms = m->o.inc_ms, .movetime_ms = m->o.movetime_ms,
	};
	struct hive_record rec;

	if (!m->o.depth && !m->o.movetime_ms && !m->o.clock_ms && !(pg->depth[0] && pg->depth[1]))
		clock.movetime_ms = MATCH_DEFAULT_MOVETIME_MS;
	game_record_time_control(&clock, tc, sizeof tc);
	snprintf(round, sizeof round, "%u", pg->game_no);
	gethostname(site, sizeof site - 1);
	struct game_record_tags t = {
		.white = pg->id[HIVE_WHITE], .black = pg->id[HIVE_BLACK],
		.event = m->o.tournament ? "hivebridge tournament" : "hivebridge match", .site = site, .round = round,
		.opening = pg->opening, .termination = pg->reason, .time_control = tc,
		.result = pg->state,
	};
	int rc = game_record_build(&rec, g, &t, plies, err, sizeof err);
	if (rc == 0) {
		rc = game_record_append(m->o.pgnout_path, &rec, err, sizeof err);
		hive_record_free(&rec);
	}
	if (rc < 0)
		fprintf(stderr, "hivebridge match: cannot write %s\n", err);
	return rc;
}

int pgnout_write(struct match *m, const struct slot *s, int state, const char *reason)
{
	struct pgnout_game pg = {
		.game_no = s->game_no, .opening = s->opening_gs, .state = state, .reason = reason,
		.depth = { m->pl[s->side[0]].depth || m->pl[s->side[0]].movetime_ms,
			   m->pl[s->side[1]].depth || m->pl[s->side[1]].movetime_ms },
	};
	struct game_record_plies p;
	size_t nevals;

	if (!m->o.pgnout_path)
		return 0;
	for (int c = 0; c < 2; c++) {
		int pl = c == HIVE_WHITE ? s->white : 1 - s->white;
		pg.id[c] = s->engine_id[pl][0] ? s->engine_id[pl] : slot_label(s, pl);
	}
	p.first = referee_start_plies(s->ref);
	p.times = referee_times(s->ref, &p.n);
	p.evals = referee_evals(s->ref, &nevals);
	return pgnout_append(m, &pg, referee_game(s->ref), &p);
}

/* ENGINE's fixed depth when it is builtin:depth=N, else 0 (a profile's is the
 * workers' to know). */
static int spec_depth(const char *spec)
{
	unsigned long long v;
	return !strncmp(spec, "builtin:depth=", 14) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0 ?
	       (int)v : 0;
}

static const char *json_str(const cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

int pgnout_write_result(struct match *m, const cJSON *o)
{
	struct pgnout_game pg = {
		.opening = json_str(o, "opening"), .reason = json_str(o, "reason"),
	};
	const char *gs = json_str(o, "gamestring"), *res = json_str(o, "result");
	const cJSON *times = cJSON_GetObjectItemCaseSensitive(o, "times_ms");
	const cJSON *evals = cJSON_GetObjectItemCaseSensitive(o, "evals");
	struct hive_game g, start;
	struct game_record_plies p = { 0 };
	uint64_t *tv = NULL;
	struct referee_eval *ev = NULL;
	char err[256];
	int rc = -1;

	if (!m->o.pgnout_path)
		return 0;
	hive_game_init(&g, 0);
	hive_game_init(&start, 0);
	pg.game_no = (unsigned)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "game"));
	int side[2], white, op;
	match_schedule(m, pg.game_no, side, &white, &op);
	pg.depth[0] = spec_depth(m->o.spec[side[0]]) || config_engine_movetime(m->o.spec[side[0]]);
	pg.depth[1] = spec_depth(m->o.spec[side[1]]) || config_engine_movetime(m->o.spec[side[1]]);
	pg.id[HIVE_WHITE] = json_str(o, "white_id") ? json_str(o, "white_id") : m->pl[side[white]].label;
	pg.id[HIVE_BLACK] = json_str(o, "black_id") ? json_str(o, "black_id") : m->pl[side[1 - white]].label;
	pg.state = !strcmp(res, "1-0") ? HIVE_WHITE_WINS : !strcmp(res, "0-1") ? HIVE_BLACK_WINS : HIVE_DRAW;
	/* match_result_check replayed both; they are replayed again for the record, and a
	 * failure here is only memory. */
	if (hive_game_parse(&g, gs, err, sizeof err) != HIVE_OK ||
	    (pg.opening && hive_game_parse(&start, pg.opening, err, sizeof err) != HIVE_OK)) {
		fprintf(stderr, "hivebridge match: cannot write %s: game %u: %s\n", m->o.pgnout_path,
			pg.game_no, err);
		goto out;
	}
	p.first = pg.opening ? start.len : 0;
	p.n = (size_t)cJSON_GetArraySize(times);
	tv = calloc(p.n + 1, sizeof *tv);
	ev = calloc(p.n + 1, sizeof *ev);
	if (!tv || !ev) {
		fprintf(stderr, "hivebridge match: cannot write %s: out of memory\n", m->o.pgnout_path);
		goto out;
	}
	size_t i = 0;
	for (const cJSON *x = times->child; x && i < p.n; x = x->next)
		tv[i++] = (uint64_t)x->valuedouble;
	i = 0;
	for (const cJSON *x = evals ? evals->child : NULL; x && i < p.n; x = x->next, i++) {
		ev[i].score = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(x, 0));
		ev[i].depth = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(x, 1));
	}
	p.times = tv;
	p.evals = ev;
	rc = pgnout_append(m, &pg, &g, &p);
out:
	free(tv);
	free(ev);
	hive_game_free(&g);
	hive_game_free(&start);
	return rc;
}
