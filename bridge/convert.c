/*
 * convert.c: `hivebridge convert` (see convert.h). Each file is read whole by
 * bridge/record_file.c before anything of it is printed, so a file whose 20th ply is
 * illegal prints nothing of itself: the command stops there, exit status 1, naming the
 * file, the game, the ply and the line.
 */
#include "bridge/convert.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/record_file.h"
#include "core/record.h"

enum convert_to { TO_PGN, TO_HIVEGAME, TO_GAMESTRING, TO_JSON, TO_SGF, TO_SGF_MOVES };

/* "sgf-moves" is issue 30's name of "sgf": the same. */
static const char *const to_names[] = { "pgn", "hivegame", "gamestring", "json", "sgf", "sgf-moves" };

static const char usage[] =
	"usage: hivebridge convert [--to pgn|hivegame|gamestring|json|sgf] FILE...\n"
	"  convert game records, one output per game; a FILE (\"-\": standard input) holds\n"
	"  PGN (Mzinga's or hivegame.com's), BoardSpace SGF or GameString lines, told\n"
	"  apart by content, and every move of it is checked\n"
	"  --to pgn         Mzinga's PGN, one numbered line per ply (the default)\n"
	"  --to hivegame    hivegame.com's PGN, one numbered line per move pair, 1-0/0-1\n"
	"  --to gamestring  one GameString line per game\n"
	"  --to json        one JSON object per game and line: file, game, type, result,\n"
	"                   tags, moves, gamestring\n"
	"  --to sgf         BoardSpace's SGF, the actions its robots write: a Move (or a\n"
	"                   Pillbug's PMove) and Done per ply, Pass, Resign; sgf-moves\n"
	"                   is the same\n"
	"  exit status: 0 when every game converted, 1 at the first file that cannot be\n"
	"  read or whose move is illegal or unreadable (file, game, ply and line said on\n"
	"  stderr) or game too wide for BoardSpace's board, 2 on a usage error\n";

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "hivebridge convert: ");
	fprintf(stderr, what, arg);
	fprintf(stderr, "\nTry 'hivebridge convert --help'.\n");
	return 2;
}

static char *game_text(const struct hive_game *g)
{
	size_t need = hive_game_format(g, NULL, 0);
	char *s = malloc(need + 1);
	if (s)
		hive_game_format(g, s, need + 1);
	return s;
}

static char *pgn_text(const struct hive_record *r, enum hive_pgn_dialect d)
{
	size_t need = hive_record_write_pgn(r, d, NULL, 0);
	char *s = malloc(need + 1);
	if (s)
		hive_record_write_pgn(r, d, s, need + 1);
	return s;
}

/* The game as SGF; NULL with *wide set when it leaves BoardSpace's board. */
static char *sgf_text(const struct hive_record *r, int *wide)
{
	size_t need = hive_record_write_sgf(r, NULL, 0);
	char *s = need ? malloc(need + 1) : NULL;
	*wide = !need;
	if (s)
		hive_record_write_sgf(r, s, need + 1);
	return s;
}

/* {"file", "game", "type", "result", "tags": {...}, "moves": [...], "gamestring"}. */
static char *json_text(const char *path, size_t index, const struct hive_record *r)
{
	cJSON *o = cJSON_CreateObject(), *tags = cJSON_CreateObject(), *moves = cJSON_CreateArray();
	struct hive_board b;
	char mv[HIVE_MOVESTR_MAX], *gs = game_text(&r->game), *s = NULL;

	if (o && tags && moves && gs) {
		cJSON_AddStringToObject(o, "file", path);
		cJSON_AddNumberToObject(o, "game", (double)index);
		cJSON_AddStringToObject(o, "type", hive_gametype_name(r->game.type));
		cJSON_AddStringToObject(o, "result", hive_state_name(r->result));
		for (size_t i = 0; i < r->ntags; i++)
			cJSON_AddStringToObject(tags, r->tags[i].name, r->tags[i].value);
		hive_board_init(&b, r->game.type);
		for (size_t i = 0; i < r->game.len; i++) {
			struct hive_undo u;
			hive_move_format(&b, r->game.hist[i].move, mv, sizeof mv);
			cJSON_AddItemToArray(moves, cJSON_CreateString(mv));
			hive_board_do(&b, r->game.hist[i].move, &u);
		}
		cJSON_AddItemToObject(o, "tags", tags);
		cJSON_AddItemToObject(o, "moves", moves);
		tags = moves = NULL;
		cJSON_AddStringToObject(o, "gamestring", gs);
		s = cJSON_PrintUnformatted(o);
	}
	cJSON_Delete(tags);
	cJSON_Delete(moves);
	cJSON_Delete(o);
	free(gs);
	return s;
}

int convert_main(int argc, char **argv)
{
	enum convert_to to = TO_PGN;
	int i, first = 1;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		const char *v = NULL;
		if (!strncmp(a, "--to=", 5))
			v = a + 5;
		else if (!strcmp(a, "--to") && i + 1 < argc)
			v = argv[++i];
		else if (!strcmp(a, "--to"))
			return usage_error("%s needs a value", a);
		else
			return usage_error("unknown option %s", a);
		size_t k = 0;
		while (k < sizeof to_names / sizeof to_names[0] && strcmp(to_names[k], v) != 0)
			k++;
		if (k == sizeof to_names / sizeof to_names[0])
			return usage_error("--to takes pgn, hivegame, gamestring, json or sgf, not %s", v);
		to = (enum convert_to)k;
	}
	if (i == argc)
		return usage_error("%s", "FILE is missing");

	for (; i < argc; i++) {
		struct hive_record *v;
		size_t n;
		char err[768];
		if (record_file_read(argv[i], &v, &n, err, sizeof err) != 0) {
			fflush(stdout);
			fprintf(stderr, "hivebridge convert: %s\n", err);
			return 1;
		}
		for (size_t k = 0; k < n; k++) {
			int wide = 0;
			char *s = to == TO_GAMESTRING ? game_text(&v[k].game) :
				  to == TO_JSON ? json_text(argv[i], k + 1, &v[k]) :
				  to >= TO_SGF ? sgf_text(&v[k], &wide) :
				  pgn_text(&v[k], to == TO_HIVEGAME ? HIVE_PGN_HIVEGAME : HIVE_PGN_MZINGA);
			if (!s) {
				char name[256] = "";
				hive_record_name(&v[k], k + 1, name, sizeof name);
				hive_records_free(v, n);
				fflush(stdout);
				if (wide)
					fprintf(stderr, "hivebridge convert: %s: %s spans more than BoardSpace's "
						"26 by 26 board\n", argv[i], name);
				else
					fprintf(stderr, "hivebridge convert: out of memory\n");
				return 1;
			}
			/* PGN and SGF games are parted by a blank line; the others are one line each. */
			if (to == TO_PGN || to == TO_HIVEGAME || to >= TO_SGF)
				printf("%s%s", first ? "" : "\n", s);
			else
				printf("%s\n", s);
			first = 0;
			free(s);
		}
		hive_records_free(v, n);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
