/*
 * tournament.c: `hivebridge tournament [options] ENGINE ENGINE...`, a round-robin
 * (every two engines meet) or a gauntlet (the first engine meets each of the
 * others). It is a match of N engines, not a second runner: the pairings' games
 * are numbered in one list (match_schedule) that match's slots play with the one
 * referee, with match's options, results file, --resume and --pgnout; at the end
 * every pairing's score and the rating list of every engine (ratings.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/match/match.h"
#include "bridge/match/match_int.h"
#include "bridge/match/ratings.h"
#include "bridge/protocol.h"

static const char tournament_usage[] =
	"usage: hivebridge tournament [options] ENGINE ENGINE [ENGINE...]\n"
	"  a round-robin (every two engines meet) or a gauntlet of up to 32 engines, each\n"
	"  game refereed as in `hivebridge match`, whose options it takes with the same\n"
	"  meaning (see `hivebridge match --help`); what differs:\n"
	"  --gauntlet             the first engine against each of the others (default:\n"
	"                         round-robin, every two engines)\n"
	"  --games N              games of each pairing, even (default 2 per opening,\n"
	"                         else 2): each opening is played with both colours\n"
	"  --anchor ENGINE        the rating list's 0 (default: the pool's average)\n"
	"  --sprt ...             only with two engines\n"
	"  the pairings' games interleave in one list, game g of pairing ((g-1)/2) mod P,\n"
	"  games 2k-1 and 2k one opening with colours swapped; --concurrency K keeps K\n"
	"  games going until fewer are left. Each --results line names white and black;\n"
	"  --resume refuses a file whose games are between other engines.\n"
	"  At the end: each pairing's score (W - L - D, Elo, pentanomial counts and Elo)\n"
	"  and the rating list (`hivebridge ratings`' maximum likelihood).\n"
	"  not yet with a tournament: --queue, --http (use match for those)\n"
	"  exit status: 0 played out, 1 an error or an interruption, 2 a usage error\n"
	"ENGINE:\n";

void tournament_pairings(struct match *m)
{
	m->npairs = 0;
	for (unsigned i = 0; i < m->npl; i++)
		for (unsigned j = i + 1; j < m->npl; j++) {
			if (m->o.gauntlet && i > 0)
				break;
			m->pairs[m->npairs][0] = (unsigned char)i;
			m->pairs[m->npairs][1] = (unsigned char)j;
			m->npairs++;
		}
}

void tournament_print_standings(const struct match *m)
{
	struct ratings_game *g = calloc(m->o.games ? m->o.games : 1, sizeof *g);
	struct ratings_row rows[MATCH_MAX_PLAYERS];
	const char *names[MATCH_MAX_PLAYERS];
	size_t ng = 0;
	int anchor = -1;
	char err[256];

	for (unsigned i = 0; i < m->npairs; i++)
		results_print_pair(m, i);
	for (unsigned p = 0; p < m->npl; p++) {
		names[p] = m->pl[p].label;
		if (m->o.anchor && !strcmp(m->o.anchor, names[p]))
			anchor = (int)p;
	}
	for (unsigned k = 1; g && k <= m->o.games; k++) {
		int side[2], white, op;
		if (!m->done[k])
			continue;
		match_schedule(m, k, side, &white, &op);
		double a = (m->done[k] - 1) / 2.0;
		g[ng++] = (struct ratings_game){ (unsigned)side[white], (unsigned)side[1 - white],
						 white == 0 ? a : 1 - a };
	}
	if (!g)
		printf("Ratings: out of memory\n");
	else if (!ng)
		printf("Ratings: no game finished\n");
	else if (ratings_fit(m->npl, names, g, ng, anchor, rows, err, sizeof err) < 0)
		printf("Ratings: %s\n", err);
	else {
		ratings_sort(rows, m->npl);
		ratings_print(stdout, rows, m->npl, RATINGS_TABLE, m->o.anchor);
	}
	free(g);
	fflush(stdout);
}

int tournament_main(int argc, char **argv)
{
	struct match m;
	int status;

	memset(&m, 0, sizeof m);
	config_defaults(&m.conf);
	int prc = match_parse_args(argc, argv, &m.o, 1);
	if (prc != 0) {
		if (prc > 0) {
			fputs(tournament_usage, stdout);
			protocol_usage_engines(stdout);
		} else
			fputs("Try 'hivebridge tournament --help'.\n", stderr);
		config_free(&m.conf);
		return prc > 0 ? 0 : 2;
	}
	status = match_run(&m);
	match_free(&m);
	return status;
}
