/*
 * check.c: the runner of `hivebridge check` (see check.h): checks and their
 * results, the reference data, the random positions, and the one place that picks
 * the suite of a protocol.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bridge/protocol.h"
#include "bridge/check/check.h"
#include "bridge/proc.h"

#define CHECK_DRAIN_MS      3000        /* at exit: how long engines get to quit */

/* splitmix64: a seeded generator, so a --seed replays the same positions. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void result_free(struct result *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->reason);
	sbuf_free(&r->sent);
	sbuf_free(&r->got);
	free(r->expected);
	strlist_free(&r->only_engine);
	strlist_free(&r->only_core);
	free(r);
}

void check_free(struct checker *ck)
{
	for (size_t i = 0; i < ck->nres; i++)
		result_free(ck->res[i]);
	free(ck->res);
	free(ck->lost);
	free(ck->info_block);
	ck->res = NULL;
	ck->nres = ck->capres = 0;
	ck->lost = ck->info_block = NULL;
}

uint64_t check_random(struct checker *ck)
{
	return rng_next(&ck->rng);
}

struct result *check_push(struct checker *ck, int required, char *name)
{
	struct result *r = xreallocarray(NULL, sizeof *r, 1);
	memset(r, 0, sizeof *r);
	r->name = name;
	r->required = required;
	r->st = ST_RUN;
	if (ck->nres == ck->capres) {
		ck->capres = ck->capres ? ck->capres * 2 : 64;
		ck->res = xreallocarray(ck->res, ck->capres * sizeof *ck->res, 1);
	}
	ck->res[ck->nres++] = r;
	return r;
}

/* A reason, escaped: it may quote the engine's bytes (the core's parse errors do). */
static char *reason_format(const char *fmt, va_list ap)
{
	struct sbuf b = { 0 };
	char *raw = xvasprintf(fmt, ap);
	sbuf_escaped(&b, raw, strlen(raw), CHECK_SHOW_GOT);
	free(raw);
	return sbuf_take(&b);
}

/* Ends a running check with a reason; the first one given is the one reported. */
static void check_close(struct result *r, enum check_status st, const char *fmt, va_list ap)
{
	if (r->st != ST_RUN)
		return;
	r->reason = reason_format(fmt, ap);
	r->st = st;
}

void check_fail(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_close(r, ST_FAIL, fmt, ap);
	va_end(ap);
}

void check_skip(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	check_close(r, ST_SKIP, fmt, ap);
	va_end(ap);
}

void check_expect(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(r->expected);
	r->expected = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Starts a check; NULL (and a SKIP recorded) when the engine is not there. */
struct result *check_begin(struct checker *ck, int required, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct result *r = check_push(ck, required, xvasprintf(fmt, ap));
	va_end(ap);
	if (ck->lost) {
		check_skip(r, "not run: %s", ck->lost);
		return NULL;
	}
	return r;
}

void check_end(struct result *r)
{
	if (r && r->st == ST_RUN)
		r->st = ST_PASS;
}

/* Skips the check (and returns -1) when the engine lacks an expansion it needs. */
int check_needs(struct checker *ck, struct result *r, unsigned type)
{
	static const char *const names[] = { "Mosquito", "Ladybug", "Pillbug" };
	unsigned missing = type & ~ck->caps_type;
	if (!missing)
		return 0;
	struct sbuf b = { 0 };
	for (int i = 0; i < 3; i++)
		if (missing & (1u << i))
			sbuf_printf(&b, "%s%s", b.len ? ", " : "", names[i]);
	check_skip(r, "engine lacks %s capability", b.s);
	sbuf_free(&b);
	return -1;
}

void check_note_got(struct result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sbuf_free(&r->got);
	sbuf_escaped(&r->got, s, strlen(s), CHECK_SHOW_GOT);
	free(s);
}

void check_note_sent(struct result *r, const char *s)
{
	if (r->sent.len)
		sbuf_str(&r->sent, " | ");
	sbuf_escaped(&r->sent, s, strlen(s), 2 * CHECK_SHOW_SENT);
}

int check_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Loads "GameType[;State;Turn[;Move]*]" by playing its moves (fields 1 and 2 are
 * ignored, like Mzinga does, since some reference data gets them wrong). g is
 * inited here; on failure it is freed and why says which field failed. */
int check_game_load(struct hive_game *g, const char *gs, char *why, size_t whylen)
{
	char *copy = xstrdup(gs), *save = NULL, *f;
	unsigned type;
	int field = 0, rc = -1;

	f = strtok_r(copy, ";", &save);
	if (!f || hive_gametype_parse(f, &type) != 0) {
		snprintf(why, whylen, "bad GameType \"%s\"", f ? f : "");
		free(copy);
		return -1;
	}
	hive_game_init(g, type);
	while ((f = strtok_r(NULL, ";", &save)) != NULL) {
		struct hive_move m;
		char err[256];
		if (++field < 3)
			continue;
		if (hive_move_parse(&g->board, f, &m, err, sizeof err) != HIVE_OK ||
		    hive_game_play(g, m) != HIVE_OK) {
			snprintf(why, whylen, "move %d \"%s\": %s", field - 2, f, err);
			hive_game_free(g);
			goto out;
		}
	}
	rc = 0;
out:
	free(copy);
	return rc;
}

int check_load_position(struct result *r, struct hive_game *g, const char *gs)
{
	char why[300];
	if (check_game_load(g, gs, why, sizeof why) < 0) {
		check_skip(r, "the core cannot load it: %s", why);
		return -1;
	}
	return 0;
}

/* The canonical GameString; caller frees. */
char *check_game_text(const struct hive_game *g)
{
	size_t n = hive_game_format(g, NULL, 0);
	char *s = xreallocarray(NULL, n + 1, 1);
	hive_game_format(g, s, n + 1);
	return s;
}

/* Field i of a ';'-separated string, copied into buf. */
void check_field_copy(const char *s, int i, char *buf, size_t len)
{
	while (i > 0 && s) {
		s = strchr(s, ';');
		if (s)
			s++;
		i--;
	}
	size_t n = 0;
	if (s) {
		n = strcspn(s, ";");
		if (n >= len)
			n = len - 1;
		memcpy(buf, s, n);
	}
	buf[n] = 0;
}

void check_trim(char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* Plays up to plies random legal moves, stopping before the game would end. */
void check_random_game(struct checker *ck, struct hive_game *g, unsigned type, int plies)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	hive_game_init(g, type);
	for (int i = 0; i < plies; i++) {
		size_t n = hive_board_moves(&g->board, moves);
		if (n == 0 || hive_game_play(g, moves[check_random(ck) % n]) != HIVE_OK)
			break;
		if (hive_game_over(&g->board)) {
			hive_game_undo(g, 1);
			break;
		}
	}
}

/* A game type the engine declares, at random. */
int check_position(struct checker *ck, int i, struct hive_game *g)
{
	if (!ck->positions_from) {
		unsigned t = check_random_type(ck);
		check_random_game(ck, g, t, (int)(check_random(ck) % 41));
		return 0;
	}
	size_t total = ck->from_positions, n = (size_t)ck->positions < total ? (size_t)ck->positions : total;
	if ((size_t)i >= n)
		return -1;
	size_t k = (size_t)i * total / n;
	for (size_t j = 0; j < ck->nfrom; j++) {
		const struct hive_game *src = &ck->from[j].game;
		size_t here = src->len - (src->len > 0 && hive_game_over(&src->board));
		if (k >= here) {
			k -= here;
			continue;
		}
		if (hive_game_copy(g, src) != HIVE_OK)
			return -1;
		hive_game_undo(g, g->len - (k + 1));
		return 0;
	}
	return -1;
}

unsigned check_random_type(struct checker *ck)
{
	unsigned types[8], n = 0;
	for (unsigned t = 0; t < 8; t++)
		if (!(t & ~ck->caps_type))
			types[n++] = t;
	return types[check_random(ck) % n];
}

/* The reference data file's lines, without BOM, CR or LF. */
static int data_read(const struct checker *ck, const char *rel, struct strlist *lines, char *why, size_t len)
{
	char *path = xasprintf("%s/%s", ck->data, rel);
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *s = line;
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
			s[--n] = 0;
		if (lines->n == 0 && !strncmp(s, "\xef\xbb\xbf", 3))
			s += 3;
		strlist_add(lines, s);
	}
	free(line);
	fclose(f);
	free(path);
	return 0;
}

/* The capability line: the expansions it names; unknown flags are listed. */
void check_caps_parse(struct checker *ck, const char *line, struct sbuf *unknown)
{
	static const char *const names[] = { "Mosquito", "Ladybug", "Pillbug" };
	char *copy = xstrdup(line), *save = NULL;
	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		size_t len = strlen(t);
		check_trim(&t, &len);
		t[len] = 0;
		int k;
		for (k = 0; k < 3 && strcasecmp(t, names[k]); k++)
			;
		if (k < 3)
			ck->caps_type |= 1u << k;
		else
			sbuf_printf(unknown, "%s\"%s\"", unknown->len ? ", " : "", t);
	}
	free(copy);
}

void ewait_free(struct ewait *w)
{
	free(w->message);
	strlist_free(&w->lines);
	w->message = NULL;
}

void ewait_done(void *arg, const struct engine_result *r)
{
	struct ewait *w = arg;

	w->finished = 1;
	w->status = r->status;
	w->message = r->message ? xstrdup(r->message) : NULL;
	w->move = r->move;
	for (size_t i = 0; r->lines && r->lines[i]; i++)
		strlist_add(&w->lines, r->lines[i]);
	event_base_loopbreak(w->base);
}

static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct checker *ck = arg;
	ck->expired = 1;
	event_base_loopbreak(ck->base);
}

/* Runs the loop until w has its result or ms pass; 0 if the result came. */
int ewait_run(struct checker *ck, struct ewait *w, int64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };

	ck->expired = 0;
	evtimer_add(ck->deadline, &tv);
	while (!w->finished && !ck->expired)
		if (event_base_loop(ck->base, EVLOOP_ONCE) < 0)
			break;
	evtimer_del(ck->deadline);
	return w->finished ? 0 : -1;
}

int check_run(struct checker *ck)
{
	const struct protocol *pr = protocol_find(ck->protocol);

	if (!pr || (!pr->check_engine && !pr->check_suite)) {
		fprintf(stderr, "hivebridge check: no checks for protocol %s\n", ck->protocol);
		return -1;
	}
	ck->base = event_base_new();
	ck->deadline = ck->base ? evtimer_new(ck->base, deadline_cb, ck) : NULL;
	if (!ck->deadline) {
		fprintf(stderr, "hivebridge check: cannot set up the event loop\n");
		if (ck->base)
			event_base_free(ck->base);
		ck->base = NULL;
		return -1;
	}
	if (pr->check_engine)
		check_engine_suite(ck, pr);
	if (pr->check_suite)
		pr->check_suite(ck);
	/* Engines quit politely, within the drain time; none is left behind. */
	proc_drain(ck->base, CHECK_DRAIN_MS);
	event_free(ck->deadline);
	event_base_free(ck->base);
	ck->deadline = NULL;
	ck->base = NULL;
	return 0;
}

int check_data_lines(struct checker *ck, const char *rel, const char *name, struct strlist *lines)
{
	char why[300];

	if (data_read(ck, rel, lines, why, sizeof why) == 0)
		return 0;
	check_fail(check_push(ck, 1, xstrdup(name)), "%s", why);
	return -1;
}
