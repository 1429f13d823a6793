/*
 * worker_players.c: the engines a worker plays, one player (m->pl[p]) per ENGINE that
 * its jobs name. A tournament's jobs name many engines, a pairing each: a player is
 * made when a job first names its ENGINE, under the one trust rule (docs/security.md:
 * a profile NAME of --config or builtin[:depth=N], unless --allow-engine-commands),
 * and kept while a slot runs or holds its engine. The engine processes are the
 * slots': two at most a slot (match.c keeps one whose player plays again there), so
 * a worker of --concurrency K runs 2K at most.
 *
 * The --config's profiles are never added to: engines point at them, and an added
 * profile may move the others. What an ENGINE makes (builtin:depth=N, a command) is
 * made in a configuration of the player's own, freed with it.
 */
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/match/match_int.h"
#include "bridge/match/worker_players.h"
#include "core/errbuf.h"

/* Whether a slot runs a game of player p, or keeps its engine. */
static int player_in_use(const struct match *m, unsigned p)
{
	for (unsigned i = 0; i < m->nslots; i++) {
		const struct slot *s = &m->slots[i];
		for (int k = 0; k < 2; k++)
			if ((s->game_no && s->side[k] == (int)p) || (s->eng[k] && s->eng_of[k] == (int)p))
				return 1;
	}
	return 0;
}

static void player_drop(struct match *m, struct worker_players *wp, unsigned p)
{
	free(wp->spec[p]);
	wp->spec[p] = NULL;
	if (wp->own[p]) {
		config_free(wp->own[p]);
		free(wp->own[p]);
		wp->own[p] = NULL;
	}
	memset(&m->pl[p], 0, sizeof m->pl[p]);
}

/* An entry for a new player: a free one, else one nobody uses (not keep); -1 if none. */
static int player_room(struct match *m, struct worker_players *wp, int keep)
{
	for (unsigned p = 0; p < MATCH_MAX_PLAYERS; p++)
		if (!wp->spec[p])
			return (int)p;
	for (unsigned p = 0; p < MATCH_MAX_PLAYERS; p++)
		if ((int)p != keep && !player_in_use(m, p)) {
			player_drop(m, wp, p);
			return (int)p;
		}
	return -1;
}

int worker_player(struct match *m, struct worker_players *wp, const char *spec, int allow_commands, int keep,
		  char *why, size_t whylen)
{
	char err[256] = "";
	int p;

	for (p = 0; p < MATCH_MAX_PLAYERS; p++)
		if (wp->spec[p] && !strcmp(wp->spec[p], spec))
			return p;
	/* Only what the operator configured, unless told otherwise (README: workers). */
	int ok = allow_commands ? 0 : config_engine_configured(&m->conf, spec, err, sizeof err);
	if (ok != 0) {
		errbuf_set(why, whylen, "%s", err[0] ? err : ok > 0 ? "no profile" : "refused");
		return ok > 0 ? WORKER_PLAYER_LACKS : WORKER_PLAYER_REFUSED;
	}
	if ((p = player_room(m, wp, keep)) < 0) {
		/* Every player has a game or an engine: the idle slots' engines go. */
		for (unsigned i = 0; i < m->nslots; i++)
			match_slot_release(&m->slots[i]);
		if ((p = player_room(m, wp, keep)) < 0) {
			errbuf_set(why, whylen, "more than %d engines in games at once", MATCH_MAX_PLAYERS);
			return WORKER_PLAYER_BUSY;
		}
	}
	struct config *conf = &m->conf;
	const struct engine_profile *pr = config_profile(conf, spec);
	int depth = 0;
	if (!pr || pr->adhoc) {
		if (!(wp->own[p] = calloc(1, sizeof *wp->own[p]))) {
			errbuf_set(why, whylen, "out of memory");
			return WORKER_PLAYER_LACKS;
		}
		config_defaults(wp->own[p]);
		conf = wp->own[p];
		if (!(pr = config_engine_parse(conf, spec, &depth, err, sizeof err))) {
			/* A form that is not an ENGINE at all: no worker can play it. */
			errbuf_set(why, whylen, "%s", err[0] ? err : "no memory");
			player_drop(m, wp, (unsigned)p);
			return WORKER_PLAYER_REFUSED;
		}
		/* builtin:depth=N is the operator's built-in engine at that depth. */
		const struct engine_profile *b = config_profile(&m->conf, "builtin");
		if (!strcmp(pr->kind, "builtin") && b && !strcmp(b->kind, "builtin")) {
			conf = &m->conf;
			pr = b;
			config_free(wp->own[p]);
			free(wp->own[p]);
			wp->own[p] = NULL;
		}
	}
	if (config_engine_check(conf, pr, err, sizeof err) < 0 || !(wp->spec[p] = strdup(spec))) {
		errbuf_set(why, whylen, "%s", err[0] ? err : "out of memory");
		player_drop(m, wp, (unsigned)p);
		return WORKER_PLAYER_LACKS;
	}
	m->pl[p].label = wp->spec[p];
	m->pl[p].profile = pr;
	m->pl[p].depth = depth;
	m->pl[p].movetime_ms = config_engine_movetime(spec);
	if ((unsigned)p >= m->npl)
		m->npl = (unsigned)p + 1;
	return p;
}

void worker_players_free(struct match *m, struct worker_players *wp)
{
	for (unsigned p = 0; p < MATCH_MAX_PLAYERS; p++)
		player_drop(m, wp, p);
}
