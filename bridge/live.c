/*
 * live.c: the registry of games in progress (bridge/live.h). A TAILQ,
 * newest first; closed games that are worth stepping through stay until
 * LIVE_KEEP_FINISHED newer ones push them out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bridge/game_record.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/util.h"

static struct {
	int               on;
	unsigned          next_id;
	TAILQ_HEAD(live_list, live_game) games;
	size_t            nkept;           /* closed records in the list */
	live_watch_cb    *watch;
	void             *watch_arg;
	const char       *archive;         /* live_archive's file, or NULL */
} live = { .games = TAILQ_HEAD_INITIALIZER(live.games) };

static void live_changed(struct live_game *lg)
{
	lg->version++;
	if (live.watch)
		live.watch(live.watch_arg, lg);
}

static void live_free(struct live_game *lg)
{
	hive_game_free(&lg->game);
	free(lg);
}

void live_enable(int on)
{
	live.on = on;
	if (on)
		return;
	struct live_game *lg;
	while ((lg = TAILQ_FIRST(&live.games))) {
		TAILQ_REMOVE(&live.games, lg, link);
		live_free(lg);
	}
	live.nkept = 0;
}

int live_enabled(void)
{
	return live.on;
}

void live_watch(live_watch_cb *cb, void *arg)
{
	live.watch = cb;
	live.watch_arg = arg;
}

static void copy_name(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "?");
}

struct live_game *live_open(const char *kind, const char *white, const char *black,
			    const struct hive_game *g, void *owner)
{
	if (!live.on)
		return NULL;
	struct live_game *lg = calloc(1, sizeof *lg);
	if (!lg)
		return NULL;
	if (hive_game_copy(&lg->game, g) != HIVE_OK) {
		free(lg);
		return NULL;
	}
	lg->id = ++live.next_id;
	copy_name(lg->kind, sizeof lg->kind, kind);
	copy_name(lg->white, sizeof lg->white, white);
	copy_name(lg->black, sizeof lg->black, black);
	lg->clock_running = -1;
	lg->owner = owner;
	TAILQ_INSERT_HEAD(&live.games, lg, link);
	live_changed(lg);
	return lg;
}

void live_update(struct live_game *lg, const struct hive_game *g)
{
	struct hive_game copy;
	if (!lg || hive_game_copy(&copy, g) != HIVE_OK)
		return;
	hive_game_free(&lg->game);
	lg->game = copy;
	/* A position before the analysed one (an undo, a new game): it no longer applies. */
	if (lg->analysis_ply > g->len)
		lg->has_analysis = 0;
	if (!hive_game_over(&g->board) && lg->finished) {
		lg->finished = 0;        /* taken back, or a new game in the same session */
		lg->reason[0] = 0;
	}
	live_changed(lg);
}

void live_clocks(struct live_game *lg, int64_t white_ms, int64_t black_ms, int running)
{
	if (!lg)
		return;
	lg->clocks = 1;
	lg->clock_ms[0] = white_ms;
	lg->clock_ms[1] = black_ms;
	lg->clock_running = running;
	lg->clock_at_us = (uint64_t)now_us();
	live_changed(lg);
}

void live_analysis(struct live_game *lg, const struct hive_search_info *info)
{
	if (!lg || !info)
		return;
	struct hive_board b = lg->game.board;
	size_t n = 0;
	lg->pv[0] = 0;
	for (int i = 0; i < info->pvlen && i < HIVE_MAX_PLY; i++) {
		struct hive_move legal;
		char ms[HIVE_MOVESTR_MAX];
		struct hive_undo u;
		if (hive_game_over(&b) || !hive_board_find_move(&b, info->pv[i], &legal))
			break;
		hive_move_format(&b, legal, ms, sizeof ms);
		size_t ml = strlen(ms);
		if (n + ml + 2 >= sizeof lg->pv)
			break;
		if (n)
			lg->pv[n++] = ';';
		memcpy(lg->pv + n, ms, ml + 1);
		n += ml;
		hive_board_do(&b, legal, &u);
	}
	lg->has_analysis = 1;
	lg->depth = info->depth;
	lg->score = info->score;
	lg->analysis_ply = lg->game.len;
	live_changed(lg);
}

void live_substitution(struct live_game *lg, const char *why)
{
	if (!lg)
		return;
	lg->substitutions++;
	snprintf(lg->substitution, sizeof lg->substitution, "%s", why ? why : "");
	live_changed(lg);
}

void live_finish(struct live_game *lg, int state, const char *reason)
{
	if (!lg)
		return;
	lg->finished = 1;
	lg->state = state;
	snprintf(lg->reason, sizeof lg->reason, "%s", reason ? reason : "");
	lg->clock_running = -1;
	live_changed(lg);
}

void live_abort(struct live_game *lg, const char *reason)
{
	if (!lg)
		return;
	lg->aborted = 1;
	snprintf(lg->reason, sizeof lg->reason, "%s", reason ? reason : "");
	lg->clock_running = -1;
	live_changed(lg);
}

void live_archive(const char *path)
{
	live.archive = path;
}

/* A session's game, played to its end, onto the archive: a failure is logged, the
 * session goes on. */
static void live_archive_game(const struct live_game *lg)
{
	char event[64], err[256];
	struct game_record_tags t = {
		.white = lg->white, .black = lg->black, .event = event,
		.termination = lg->reason, .result = lg->state,
	};
	struct hive_record rec;

	snprintf(event, sizeof event, "hivebridge %s session", lg->kind);
	if (game_record_build(&rec, &lg->game, &t, NULL, err, sizeof err) < 0) {
		log_note(0, "live game %u: not archived: %s", lg->id, err);
		return;
	}
	if (game_record_append(live.archive, &rec, err, sizeof err) < 0)
		log_note(0, "live game %u: not archived: %s", lg->id, err);
	hive_record_free(&rec);
}

void live_report(struct live_game **lgp, const char *kind, const char *white,
		 const char *black, const struct hive_game *g)
{
	static const char *const reasons[] = {
		[HIVE_DRAW] = "both queens surrounded",
		[HIVE_WHITE_WINS] = "black queen surrounded",
		[HIVE_BLACK_WINS] = "white queen surrounded",
	};
	if (!*lgp)
		*lgp = live_open(kind, white, black, g, NULL);
	else
		live_update(*lgp, g);
	if (*lgp && hive_game_over(&g->board) && !(*lgp)->finished) {
		live_finish(*lgp, g->board.state, reasons[g->board.state]);
		if (live.archive)
			live_archive_game(*lgp);
	}
}

void live_close(struct live_game *lg)
{
	if (!lg)
		return;
	lg->closed = 1;
	lg->owner = NULL;
	lg->clock_running = -1;
	if (!lg->finished && !lg->aborted && lg->game.len == 0) {
		/* Nothing to step through: gone at once. */
		lg->version++;
		if (live.watch)
			live.watch(live.watch_arg, lg);
		TAILQ_REMOVE(&live.games, lg, link);
		live_free(lg);
		return;
	}
	if (!lg->finished && !lg->aborted)
		snprintf(lg->reason, sizeof lg->reason, "abandoned");
	live.nkept++;
	live_changed(lg);
	/* The oldest closed records go first. */
	struct live_game *last = TAILQ_LAST(&live.games, live_list);
	while (live.nkept > LIVE_KEEP_FINISHED && last) {
		struct live_game *prev = TAILQ_PREV(last, live_list, link);
		if (last->closed) {
			TAILQ_REMOVE(&live.games, last, link);
			live_free(last);
			live.nkept--;
		}
		last = prev;
	}
}

const struct live_game *live_first(void)
{
	return TAILQ_FIRST(&live.games);
}

const struct live_game *live_find(unsigned id)
{
	struct live_game *lg;
	TAILQ_FOREACH(lg, &live.games, link)
		if (lg->id == id)
			return lg;
	return NULL;
}

struct live_game *live_owned(unsigned id, void *owner)
{
	struct live_game *lg;
	TAILQ_FOREACH(lg, &live.games, link)
		if (lg->id == id)
			return owner && lg->owner == owner && !lg->closed ? lg : NULL;
	return NULL;
}

void live_notify_match(void)
{
	if (live.on && live.watch)
		live.watch(live.watch_arg, NULL);
}
