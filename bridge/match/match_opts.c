/*
 * match_opts.c: the command lines of `hivebridge match`, `tournament` and `worker`
 * as data (tmux's cmd_entry and redis's config table being the models): one row an
 * option, naming the commands that take it, its kind (a flag, a string, an unsigned
 * with its range and default, or a setter of its own) and where it is stored in
 * struct match_opts; one walker reads any of the three command lines through it.
 * The --help texts are here too, hand-formatted; test_match_opts checks them, and
 * the man page, against the table.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bridge/match/match_int.h"
#include "bridge/protocol.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

static const char match_usage[] =
	"usage: hivebridge match [options] ENGINE_A ENGINE_B\n"
	"  an engine that never starts aborts the match\n"
	"  --type GAMETYPE        Base, Base+MLP, ... (default Base)\n"
	"  --games N              games to play (default 2 per opening, else 2)\n"
	"  --concurrency K        games at once, each with its own engines (default 1)\n"
	"  --openings FILE        GameStrings one per line, or a PGN or SGF record's games;\n"
	"                         each played twice\n"
	"  --opening-plies N      of a PGN or SGF game: its first N plies (default all)\n"
	"  --depth N | --movetime MS | --clock MS[+INC]   search limits (default movetime 1000)\n"
	"  --max-plies N          adjudicate a draw after N plies (default 1000)\n"
	"  --repetition N         adjudicate a draw when a position occurs N times,\n"
	"                         the opening's included; the same bugs on the same\n"
	"                         cells, whichever Ant is which (default 3, 0 = never)\n"
	"  --results FILE         one JSON line per finished game\n"
	"  --pgnout FILE          every finished game appended as PGN (Mzinga's), with\n"
	"                         the time, score and depth of each move as comments\n"
	"  --resume               skip the games already in --results FILE; the games a\n"
	"                         signal aborted (result \"*\") are played again; --pgnout\n"
	"                         FILE keeps the games --results has and is continued\n"
	"  --sprt ELO0,ELO1[,ALPHA,BETA]   stop when the test decides\n"
	"  --sprt-model pentanomial|trinomial   the test's model: by default the game\n"
	"                         pairs' pentanomial counts (fastchess, fishtest); trinomial\n"
	"                         W/L/D (cutechess's BayesElo)\n"
	"  --sprt-min-games N     no SPRT verdict before N games (default 0): over a\n"
	"                         few games the LLR's variance estimate is too rough\n"
	"  --viewer ADDR:PORT     send GameStrings of running games to TCP viewers\n"
	"                         (a viewer that sends \"attach N\" follows game N only)\n"
	"  --http ADDR:PORT       the web page: live games and the match dashboard; it\n"
	"                         stays up after the last game until SIGINT or SIGTERM;\n"
	"                         beyond loopback only with HIVEBRIDGE_HTTP_TOKEN set\n"
	"  --config FILE          engine profiles; --log FILE  protocol trace log\n"
	"  --queue redis://HOST:PORT/NAME   coordinate: the games go to `hivebridge\n"
	"                         worker`s through Redis (docs/scale.md); no password\n"
	"                         here: HIVEBRIDGE_REDIS_PASSWORD or [queue] password\n"
	"  --keep                 with --queue and --results: keep the streams once the\n"
	"                         match is over (by default they are deleted)\n"
	"  --live-expiry MS       with --queue and --http: a worker's game shown live is\n"
	"                         dropped after MS without a move (default: 60000, or\n"
	"                         the clock or twice the movetime if longer)\n"
	"  SIGINT, SIGTERM: the games in progress are written to --results as aborted\n"
	"  (\"result\":\"*\", \"reason\":\"aborted: match interrupted\"), then it stops\n"
	"  exit status: 0 the match ran to its end (or the SPRT decided), 1 an error\n"
	"  (an engine that cannot start, a file) or an interruption, 2 a usage error\n"
	"ENGINE:\n";

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
	"  --http ADDR:PORT       the dashboard: the live games and the rating list with\n"
	"                         error bars, each pairing's score and pentanomial\n"
	"  --queue redis://HOST:PORT/NAME   the games go to `hivebridge worker`s, as with\n"
	"                         match --queue: each job names its pairing's engines\n"
	"  exit status: 0 played out, 1 an error or an interruption, 2 a usage error\n"
	"ENGINE:\n";

static const char worker_usage[] =
	"usage: hivebridge worker --queue redis://HOST:PORT/NAME [options]\n"
	"  plays the games of `hivebridge match --queue` or `tournament --queue` with this\n"
	"  machine's engines: each job's own two (two engine processes a game slot at most)\n"
	"  --queue URL            the match's Redis and NAME (no password in the URL:\n"
	"                         $HIVEBRIDGE_REDIS_PASSWORD or [queue] password of --config)\n"
	"  --config FILE          engine profiles (the match's ENGINE names resolve here)\n"
	"  --concurrency K        games at once (default 1)\n"
	"  --name NAME            consumer name (default HOST-PID)\n"
	"  --claim-after MS       a job pending this long with a silent worker is taken\n"
	"                         over and replayed (default 60000)\n"
	"  --max-move-ms MS       a move's hard cap, whatever the job says (a depth has\n"
	"                         no deadline): the engine is asked to answer MS/10 (at\n"
	"                         most 1 s) before, and loses on time at MS (default\n"
	"                         60000); a job whose movetime (or an engine's\n"
	"                         builtin:movetime=MS) does not fit before is set aside\n"
	"  --allow-engine-commands\n"
	"                         also run a job's ENGINE that is a command (uhp:CMD,\n"
	"                         hub:CMD, otep:..., trylobot:HOST:PORT, a bare CMD).\n"
	"                         WARNING: whoever can write to the Redis (or start a\n"
	"                         match --queue on it) then runs any program on this\n"
	"                         machine as this user. Without it a job's ENGINE must\n"
	"                         be a profile NAME of --config or builtin[:depth=N];\n"
	"                         another job is set aside on the match's dead stream\n"
	"  --log FILE             protocol trace log\n"
	"  exit status: 0 the match is over (or SIGINT/SIGTERM), 1 an engine that cannot\n"
	"  work (reported to the coordinator) or Redis refused us, 2 a usage error\n";

/* The three commands: what each takes besides its options. */
static const struct match_command {
	unsigned    bit;
	const char *name;
	unsigned    maxspec;     /* ENGINE arguments at most */
	const char *too_long;    /* what an option name too long to be one is called */
	const char *usage;
	int         engines;     /* --help ends with the ENGINE forms */
} match_commands[] = {
	{ MATCH_CMD_MATCH, "match", 2, "unknown option", match_usage, 1 },
	{ MATCH_CMD_TOURNAMENT, "tournament", MATCH_MAX_PLAYERS, "unknown option", tournament_usage, 1 },
	{ MATCH_CMD_WORKER, "worker", 0, "unexpected argument", worker_usage, 0 },
};

enum opt_kind {
	OPT_FLAG,    /* no value: the int field becomes 1 */
	OPT_STR,     /* the value itself (argv outlives the options) */
	OPT_UINT,    /* lo..hi (and ok, if any) into an unsigned, int or uint64_t field */
	OPT_FN,      /* its own setter */
};

struct match_option {
	const char   *name;
	unsigned      cmds;          /* MATCH_CMD_* bits: the commands that take it */
	enum opt_kind kind;
	unsigned long long lo, hi;   /* OPT_UINT */
	unsigned long long def;      /* OPT_UINT: the default, when not 0 */
	size_t        off, size;     /* the field (not OPT_FN) */
	int           has_set;       /* set_off names an int set to 1 once it is given */
	size_t        set_off;
	int         (*ok)(unsigned long long v);   /* OPT_UINT: more than the range */
	/* OPT_FN: -1 on a bad value, with err when there is more to say than "bad value" */
	int         (*fn)(struct match_opts *o, const char *v, char *err, size_t errlen);
};

/* "MS" or "MS+INC". */
static int set_clock(struct match_opts *o, const char *s, char *err, size_t errlen)
{
	char buf[64];
	unsigned long long a, b = 0;
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (parse_uint(buf, 1, 86400000ULL * 7, &a) < 0)
		return -1;
	if (plus && parse_uint(plus + 1, 0, 86400000ULL, &b) < 0)
		return -1;
	o->clock_ms = a;
	o->inc_ms = b;
	return 0;
}

static int set_type(struct match_opts *o, const char *v, char *err, size_t errlen)
{
	if (hive_gametype_parse(v, &o->type) != 0)
		return errbuf_set(err, errlen, "unknown game type %s", v);
	return 0;
}

static int set_sprt(struct match_opts *o, const char *v, char *err, size_t errlen)
{
	return sprt_parse(v, &o->sprt, err, errlen) < 0 ? -1 : 0;
}

static int set_sprt_model(struct match_opts *o, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "pentanomial") && strcmp(v, "trinomial"))
		return -1;
	o->sprt_trinomial = !strcmp(v, "trinomial");
	return 0;
}

/* A consumer name: one word that fits. */
static int set_worker_name(struct match_opts *o, const char *v, char *err, size_t errlen)
{
	if (!*v || strlen(v) >= MATCH_WORKER_NAME_MAX || strpbrk(v, " \t\r\n"))
		return -1;
	o->worker_name = v;
	return 0;
}

static int plies_ok(unsigned long long v)
{
	return MATCH_PLIES_OK(v);
}

static int repetition_ok(unsigned long long v)
{
	return MATCH_REPETITION_OK(v);
}

#define F(field)  .off = offsetof(struct match_opts, field), \
		  .size = sizeof(((struct match_opts *)0)->field)
#define SET(field) .has_set = 1, .set_off = offsetof(struct match_opts, field)
#define MT        (MATCH_CMD_MATCH | MATCH_CMD_TOURNAMENT)
#define DAY_MS    86400000ULL

static const struct match_option match_options[] = {
	{ "--resume", MT, OPT_FLAG, F(resume) },
	{ "--keep", MT, OPT_FLAG, F(keep) },
	{ "--gauntlet", MATCH_CMD_TOURNAMENT, OPT_FLAG, F(gauntlet) },
	{ "--allow-engine-commands", MATCH_CMD_WORKER, OPT_FLAG, F(allow_commands) },
	{ "--type", MT, OPT_FN, .fn = set_type, SET(type_set) },
	{ "--games", MT, OPT_UINT, 1, MATCH_MAX_GAMES, 0, F(games), SET(games_set) },
	{ "--concurrency", MT | MATCH_CMD_WORKER, OPT_UINT, 1, MATCH_MAX_CONCURRENCY, 1, F(concurrency) },
	{ "--openings", MT, OPT_STR, F(openings_path) },
	{ "--opening-plies", MT, OPT_UINT, 1, MATCH_PLY_CAP, 0, F(opening_plies) },
	{ "--depth", MT, OPT_UINT, 1, MATCH_MAX_DEPTH, 0, F(depth) },
	{ "--movetime", MT, OPT_UINT, 1, DAY_MS, 0, F(movetime_ms) },
	{ "--clock", MT, OPT_FN, .fn = set_clock },
	{ "--max-plies", MT, OPT_UINT, 0, MATCH_PLY_CAP, REFEREE_MAX_PLIES, F(max_plies), .ok = plies_ok },
	{ "--repetition", MT, OPT_UINT, 0, MATCH_REPETITION_CAP, REFEREE_REPETITION, F(repetition),
	  .ok = repetition_ok },
	{ "--results", MT, OPT_STR, F(results_path) },
	{ "--pgnout", MT, OPT_STR, F(pgnout_path) },
	{ "--sprt", MT, OPT_FN, .fn = set_sprt, SET(sprt_set) },
	{ "--sprt-model", MT, OPT_FN, .fn = set_sprt_model },
	{ "--anchor", MATCH_CMD_TOURNAMENT, OPT_STR, F(anchor) },
	{ "--sprt-min-games", MT, OPT_UINT, 0, MATCH_MAX_GAMES, 0, F(sprt_min_games) },
	{ "--viewer", MT, OPT_STR, F(viewer) },
	{ "--http", MT, OPT_STR, F(http) },
	{ "--config", MT | MATCH_CMD_WORKER, OPT_STR, F(config_path) },
	{ "--log", MT | MATCH_CMD_WORKER, OPT_STR, F(log_path) },
	{ "--queue", MT | MATCH_CMD_WORKER, OPT_STR, F(queue) },
	{ "--live-expiry", MT, OPT_UINT, 100, DAY_MS, 0, F(live_expiry_ms) },
	{ "--claim-after", MATCH_CMD_WORKER, OPT_UINT, 100, DAY_MS, MATCH_CLAIM_MS, F(claim_ms) },
	{ "--max-move-ms", MATCH_CMD_WORKER, OPT_UINT, 100, DAY_MS, MATCH_MAX_MOVE_MS, F(max_move_ms) },
	{ "--name", MATCH_CMD_WORKER, OPT_FN, .fn = set_worker_name },
};
#define NOPTIONS (sizeof match_options / sizeof match_options[0])

static const struct match_command *command_find(unsigned bit)
{
	for (size_t i = 0; i < sizeof match_commands / sizeof match_commands[0]; i++)
		if (match_commands[i].bit == bit)
			return &match_commands[i];
	return NULL;
}

/* The row of name that cmd takes, flags (or the others), or NULL. */
static const struct match_option *option_find(unsigned cmd, const char *name, int flag)
{
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct match_option *r = &match_options[i];
		if ((r->cmds & cmd) && (r->kind == OPT_FLAG) == flag && !strcmp(r->name, name))
			return r;
	}
	return NULL;
}

static void store_uint(void *field, size_t size, unsigned long long v)
{
	if (size == sizeof(uint64_t)) {
		uint64_t x = v;
		memcpy(field, &x, sizeof x);
	} else {
		unsigned x = (unsigned)v;
		memcpy(field, &x, sizeof x);
	}
}

/* The value v into o as row r says: 0, or -1 (err when there is more to say). */
static int option_set(const struct match_option *r, struct match_opts *o, const char *v,
		      char *err, size_t errlen)
{
	char *field = (char *)o + r->off;
	unsigned long long u;

	switch (r->kind) {
	case OPT_FLAG:
		*(int *)(void *)field = 1;
		break;
	case OPT_STR:
		*(const char **)(void *)field = v;
		break;
	case OPT_UINT:
		if (parse_uint(v, r->lo, r->hi, &u) < 0 || (r->ok && !r->ok(u)))
			return -1;
		store_uint(field, r->size, u);
		break;
	case OPT_FN:
		if (r->fn(o, v, err, errlen) < 0)
			return -1;
		break;
	}
	if (r->has_set)
		*(int *)(void *)((char *)o + r->set_off) = 1;
	return 0;
}

/* The value of option argv[*i]: "--opt value" (*i then moves past the value) or
 * "--opt=value"; the option's name into name (size n). NULL, said on stderr as
 * "hivebridge CMD: ...", when the name is too long (too_long: the words for it) or
 * the value is missing. */
static const char *option_value(const char *cmd, const char *too_long, int argc, char **argv,
			       int *i, char *name, size_t n)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	size_t nlen = eq ? (size_t)(eq - a) : strlen(a);

	if (nlen >= n) {
		fprintf(stderr, "hivebridge %s: %s %s\n", cmd, too_long, a);
		return NULL;
	}
	memcpy(name, a, nlen);
	name[nlen] = 0;
	const char *val = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
	if (!val)
		fprintf(stderr, "hivebridge %s: %s needs a value\n", cmd, name);
	return val;
}

int match_options_parse(int argc, char **argv, unsigned cmd, struct match_opts *o)
{
	const struct match_command *c = command_find(cmd);
	unsigned nspec = 0;

	memset(o, 0, sizeof *o);
	for (size_t k = 0; k < NOPTIONS; k++)
		if ((match_options[k].cmds & cmd) && match_options[k].def)
			store_uint((char *)o + match_options[k].off, match_options[k].size,
				   match_options[k].def);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char err[512] = "", name[32];

		/* A lone "-" is an argument to a command that takes ENGINEs, else an option. */
		if (a[0] != '-' || (a[1] == 0 && c->maxspec)) {
			if (nspec == c->maxspec) {
				fprintf(stderr, "hivebridge %s: unexpected argument %s%s\n", c->name, a,
					cmd == MATCH_CMD_TOURNAMENT ? " (at most 32 engines)" : "");
				return -1;
			}
			o->spec[nspec++] = a;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		const struct match_option *r = option_find(cmd, a, 1);
		if (r) {
			option_set(r, o, NULL, err, sizeof err);
			continue;
		}
		/* Every other option takes a value. */
		const char *val = option_value(c->name, c->too_long, argc, argv, &i, name,
					    sizeof name);
		if (!val)
			return -1;
		r = option_find(cmd, name, 0);
		if (!r) {
			fprintf(stderr, "hivebridge %s: unknown option %s\n", c->name, name);
			return -1;
		}
		if (option_set(r, o, val, err, sizeof err) < 0) {
			if (err[0])
				fprintf(stderr, "hivebridge %s: %s\n", c->name, err);
			else
				fprintf(stderr, "hivebridge %s: bad value for %s: %s\n", c->name, name, val);
			return -1;
		}
	}
	o->nspec = nspec;
	return 0;
}

void match_help(FILE *f, unsigned cmd)
{
	const struct match_command *c = command_find(cmd);
	fputs(c->usage, f);
	if (c->engines)
		protocol_usage_engines(f);
}

const char *match_option_name(size_t i, unsigned *cmds)
{
	if (i >= NOPTIONS)
		return NULL;
	*cmds = match_options[i].cmds;
	return match_options[i].name;
}
