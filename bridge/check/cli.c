/*
 * cli.c: the command line of `hivebridge check`: options, the engine (a word, a
 * command or a profile) and its protocol, the reference data, then the runner.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bridge/check/check.h"
#include "bridge/config.h"
#include "bridge/log.h"
#include "bridge/protocol.h"
#include "bridge/record_file.h"

#define CHECK_TIMEOUT_MS    5000        /* default deadline of a command's "ok" */
#define CHECK_MARGIN_MS     500         /* default grace over a bestmove time limit */
#define CHECK_POSITIONS     20          /* default number of random positions */
/* Where `make install` puts the reference data (DATADIR/data). */
#ifndef HIVEBRIDGE_DATADIR
#define HIVEBRIDGE_DATADIR  "/usr/local/share/hivebridge"
#endif
#define CHECK_DATA_MARK     "nokamute/uhp_tests.txt"   /* a file every data set has */

static const char check_usage[] =
	"usage: hivebridge check [OPTIONS] ENGINE\n"
	"       hivebridge check [OPTIONS] [--config FILE] --profile NAME\n"
	"  runs a conformance suite against the engine and prints a report;\n"
	"  the exit status is 0 only when every required check passes\n"
	"  ENGINE is one of\n"
	"    -- CMD [ARGS...]     an engine of the default protocol (the first below)\n"
	"    \"CMD ARGS\"           the same, the command split like in a config file\n"
	"    builtin              this program's own engine, through its UHP front end\n"
	"    builtin:depth=N      the same, at a fixed depth where no limit is given\n"
	"    NAME                 an [engine NAME] profile of --config\n";

/* The rest of the help, after the ENGINE forms of the protocol table. */
static const char check_usage_options[] =
	"  engines of each protocol get the checks their protocol allows; the ones it\n"
	"  has no counterpart for are skipped with the reason\n"
	"  --json               print the report as JSON\n"
	"  --timeout-ms N       deadline of each reply, and the start and command\n"
	"                       time-outs of engines (default 5000; a --profile\n"
	"                       keeps its own unless this is given)\n"
	"  --time-margin-ms N   grace over a bestmove time limit (default 500)\n"
	"  --positions N        random positions for move generation or bestmove (default 20)\n"
	"  --seed S             seed of the random positions (default 1)\n"
	"  --positions-from FILE  the positions after each ply of FILE's games (PGN,\n"
	"                       BoardSpace SGF or GameStrings), --positions of them spread\n"
	"                       evenly, instead of random ones\n"
	"  --data DIR           reference data; without it: $HIVEBRIDGE_DATA (or\n"
	"                       $HIVE_DATA), then " HIVEBRIDGE_DATADIR "/data, then\n"
	"                       ../../shared/data from this program's folder (a build tree);\n"
	"                       no data is an error\n"
	"  --config FILE        configuration file with the --profile\n"
	"  --profile NAME       the engine of that profile (\"builtin\" without --config)\n"
	"  --log FILE           trace of every protocol line and frame\n"
	"                       (\"-\" = stderr)\n"
	"  --verbose            list every passing check on its own line\n"
	"  -h, --help           this text\n"
	"  exit status: 0 every required check passed, 1 one failed or the check could\n"
	"  not run (no data, a configuration or log error), 2 a usage error\n";

/* One line per protocol with a check suite: its ENGINE form and what it names. */
static void usage_engines(FILE *f)
{
	const struct protocol *p;

	for (size_t i = 0; (p = protocol_at(i)); i++) {
		char form[64];
		if (!p->back_new || (!p->check_engine && !p->check_suite))
			continue;
		snprintf(form, sizeof form, "%s:%s", p->name,
			 p->target == PROTOCOL_ADDRESS ? "HOST:PORT" : "CMD [ARGS...]");
		fprintf(f, "    %-20s %s\n", form, p->engine_help);
	}
}

static int parse_num(const char *flag, const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = s ? strtoull(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || *s == '-' || v > max) {
		fprintf(stderr, "hivebridge check: %s needs a number up to %" PRIu64 "\n", flag, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parses the options into ck; returns the index of the engine (argc if there is
 * none), -1 on a usage error, -2 for --help. */
static int parse_args(struct checker *ck, int argc, char **argv)
{
	static const struct {
		const char *flag;
		uint64_t    max;
	} numeric[] = {
		{ "--timeout-ms", 3600 * 1000 }, { "--time-margin-ms", 3600 * 1000 },
		{ "--positions", 100000 }, { "--seed", UINT64_MAX },
	};
	static const char *const strings[] = { "--data", "--config", "--profile", "--log", "--positions-from" };
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--json")) {
			ck->json = 1;
			continue;
		}
		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			ck->verbose = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return -2;
		const char *eq = strchr(a, '=');
		size_t flen = eq ? (size_t)(eq - a) : strlen(a);
		const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
		size_t k;
		for (k = 0; k < sizeof strings / sizeof strings[0]; k++)
			if (strlen(strings[k]) == flen && !strncmp(a, strings[k], flen))
				break;
		if (k < sizeof strings / sizeof strings[0]) {
			if (!val || !*val) {
				fprintf(stderr, "hivebridge check: %s needs a value\n", strings[k]);
				return -1;
			}
			const char **dst[] = { &ck->data, &ck->config_path, &ck->profile_name, &ck->log_path,
					       &ck->positions_from };
			*dst[k] = val;
			i += !eq;
			continue;
		}
		for (k = 0; k < sizeof numeric / sizeof numeric[0]; k++)
			if (strlen(numeric[k].flag) == flen && !strncmp(a, numeric[k].flag, flen))
				break;
		if (k == sizeof numeric / sizeof numeric[0]) {
			fprintf(stderr, "hivebridge check: unknown option %s\n", a);
			return -1;
		}
		uint64_t v;
		if (parse_num(numeric[k].flag, val, numeric[k].max, &v) < 0)
			return -1;
		i += !eq;
		switch (k) {
		case 0: ck->timeout_ms = (int)v; ck->timeout_set = 1; break;
		case 1: ck->margin_ms = (int)v; break;
		case 2: ck->positions = (int)v; break;
		default: ck->seed = v; break;
		}
	}
	return i;
}

/* What check_main allocates for the engine's command line. */
struct cmdline {
	char  *self;          /* this program's path */
	char **argv;          /* a command built here (NULL-terminated), or NULL */
	char  *addr;          /* a Trylobot module's HOST:PORT */
	char  *addr_argv[2];
	const char *spec;     /* a builtin ENGINE word, for the child's --engine */
};

static void cmdline_free(struct cmdline *c)
{
	free(c->self);
	free(c->argv);        /* its strings belong to argv[] or c->self */
	free(c->addr);
}

/* The engine named on the command line, as a profile owned by cfg, or NULL for
 * "builtin" (*builtin set) and for a raw command of the default protocol (ck->argv
 * set). The words after a "PREFIX:CMD" word are its arguments and go into c->argv.
 * -1 on error. */
static int engine_from_args(struct checker *ck, struct config *cfg, int n, char **words,
			    const struct engine_profile **out, int *builtin, struct cmdline *c)
{
	char err[512] = "";

	*out = NULL;
	*builtin = 0;
	if (n == 1 && !strcmp(words[0], "builtin")) {
		*builtin = 1;
		return 0;
	}
	if (n == 1) {
		int depth;
		*out = config_engine_parse(cfg, words[0], &depth, err, sizeof err);
		const struct protocol *pr = *out ? protocol_by_kind((*out)->kind) : NULL;
		if (!*out || (pr && pr->target == PROTOCOL_COMMAND &&
			      (!(*out)->argv || !(*out)->argv[0]))) {
			fprintf(stderr, "hivebridge check: engine \"%s\": %s\n", words[0],
				err[0] ? err : "empty engine command");
			return -1;
		}
		*builtin = !strcmp((*out)->kind, "builtin");
		if (*builtin)
			c->spec = words[0];     /* the child parses it the same way */
		return 0;
	}
	const char *rest;
	const struct protocol *pr = protocol_for_engine(words[0], &rest);
	if (!pr) {
		ck->argv = words;      /* a command of the default protocol, as it is */
		return 0;
	}
	if (pr->target != PROTOCOL_COMMAND) {
		fprintf(stderr, "hivebridge check: %s:HOST:PORT takes no arguments\n", pr->name);
		return -1;
	}
	if (!*rest) {
		fprintf(stderr, "hivebridge check: %s: no command\n", words[0]);
		return -1;
	}
	c->argv = xreallocarray(NULL, ((size_t)n + 1) * sizeof *c->argv, 1);
	c->argv[0] = (char *)rest;
	for (int i = 1; i < n; i++)
		c->argv[i] = words[i];
	c->argv[n] = NULL;
	/* A profile with the defaults of its kind; its command is replaced by c->argv. */
	*out = config_add_command(cfg, pr->name, "-", err, sizeof err);
	if (!*out) {
		fprintf(stderr, "hivebridge check: %s\n", err[0] ? err : "bad engine");
		return -1;
	}
	return 0;
}

/* Sets ck up for the engine: its protocol, its command or address. -1 on error. */
static int engine_setup(struct checker *ck, const struct engine_profile *p, int builtin, struct cmdline *c)
{
	if (builtin) {
		/* This binary's own front end of the default protocol (with the profile's
		 * settings, if named), checked like any engine that speaks it. */
		char path[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
		if (n <= 0) {
			fprintf(stderr, "hivebridge check: cannot find this program: %s\n", strerror(errno));
			return -1;
		}
		path[n] = 0;
		c->self = xstrdup(path);
		c->argv = xreallocarray(NULL, 7 * sizeof *c->argv, 1);
		size_t k = 0;
		c->argv[k++] = c->self;
		c->argv[k++] = (char *)protocol_default()->name;
		if (ck->config_path) {
			c->argv[k++] = "--config";
			c->argv[k++] = (char *)ck->config_path;
		}
		if (ck->profile_name) {
			c->argv[k++] = "--profile";
			c->argv[k++] = (char *)ck->profile_name;
		} else if (c->spec) {
			c->argv[k++] = "--engine";
			c->argv[k++] = (char *)c->spec;
		}
		c->argv[k] = NULL;
		ck->argv = c->argv;
		ck->protocol = protocol_default()->name;
		return 0;
	}
	if (!p) {
		ck->protocol = protocol_default()->name;      /* ck->argv is set */
		return 0;
	}
	const struct protocol *pr = protocol_by_kind(p->kind);
	if (!pr || (!pr->check_engine && !pr->check_suite)) {
		fprintf(stderr, "hivebridge check: cannot check an engine of kind \"%s\"\n", p->kind);
		return -1;
	}
	ck->prof = *p;        /* shallow: the strings stay the config's */
	ck->protocol = pr->name;
	if (c->argv)
		ck->prof.argv = c->argv;
	if (!ck->profile_name || ck->timeout_set) {
		ck->prof.start_timeout_ms = (unsigned)ck->timeout_ms;
		ck->prof.command_timeout_ms = (unsigned)ck->timeout_ms;
		if (ck->prof.stop_timeout_ms > (unsigned)ck->timeout_ms)
			ck->prof.stop_timeout_ms = (unsigned)ck->timeout_ms;
	}
	if (pr->target == PROTOCOL_COMMAND) {
		if (!ck->prof.argv || !ck->prof.argv[0]) {
			fprintf(stderr, "hivebridge check: profile %s has no command\n", p->name);
			return -1;
		}
		ck->argv = ck->prof.argv;
		ck->workdir = ck->prof.workdir;
	} else {
		c->addr = xasprintf("%s:%u", p->host ? p->host : "?", (unsigned)p->port);
		c->addr_argv[0] = c->addr;
		ck->argv = c->addr_argv;
	}
	return 0;
}

/* Finds the reference data: --data, $HIVEBRIDGE_DATA or $HIVE_DATA (an explicit
 * choice must hold it), else the installed copy, else the copy beside a source
 * checkout this program was built in. ck->data is set, or -1 after saying where
 * it looked. *own holds a path built here. */
static int data_locate(struct checker *ck, char **own)
{
	const char *env = getenv("HIVEBRIDGE_DATA");
	const char *how = ck->data ? "--data" : NULL;
	char exe[PATH_MAX], *looked[2] = { NULL, NULL };
	size_t nlooked = 0;

	if (!how && env && *env) {
		ck->data = env;
		how = "HIVEBRIDGE_DATA";
	} else if (!how && (env = getenv("HIVE_DATA")) != NULL && *env) {
		ck->data = env;
		how = "HIVE_DATA";
	}
	if (how) {
		char *mark = xasprintf("%s/%s", ck->data, CHECK_DATA_MARK);
		int ok = access(mark, R_OK) == 0;
		free(mark);
		if (!ok)
			fprintf(stderr, "hivebridge check: no reference data in %s (from %s): %s is missing\n",
				ck->data, how, CHECK_DATA_MARK);
		return ok ? 0 : -1;
	}
	looked[nlooked++] = xstrdup(HIVEBRIDGE_DATADIR "/data");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			looked[nlooked++] = xasprintf("%s/../../shared/data", exe);
		}
	}
	for (size_t i = 0; i < nlooked; i++) {
		char *mark = xasprintf("%s/%s", looked[i], CHECK_DATA_MARK);
		int ok = access(mark, R_OK) == 0;
		free(mark);
		if (ok) {
			*own = looked[i];
			ck->data = *own;
			for (size_t j = 0; j < nlooked; j++)
				if (j != i)
					free(looked[j]);
			return 0;
		}
	}
	fprintf(stderr, "hivebridge check: no reference data; looked in --data, $HIVEBRIDGE_DATA, "
		"$HIVE_DATA");
	for (size_t i = 0; i < nlooked; i++) {
		fprintf(stderr, ", %s", looked[i]);
		free(looked[i]);
	}
	fprintf(stderr, "\n");
	return -1;
}

int check_main(int argc, char **argv)
{
	struct checker ck;
	struct config cfg;
	struct cmdline cl;
	const struct engine_profile *p = NULL;
	char err[512] = "", *data_own = NULL;
	int status = 2, builtin = 0, logging = 0;

	memset(&ck, 0, sizeof ck);
	memset(&cl, 0, sizeof cl);
	ck.timeout_ms = CHECK_TIMEOUT_MS;
	ck.margin_ms = CHECK_MARGIN_MS;
	ck.positions = CHECK_POSITIONS;
	ck.seed = 1;
	config_defaults(&cfg);

	int first = parse_args(&ck, argc, argv);
	if (first == -2) {
		fputs(check_usage, stdout);
		usage_engines(stdout);
		fputs(check_usage_options, stdout);
		status = 0;
		goto out;
	}
	if (first < 0) {
		fputs("Try 'hivebridge check --help'.\n", stderr);
		goto out;
	}
	if (ck.config_path && config_load(&cfg, ck.config_path, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge check: %s\n", err[0] ? err : ck.config_path);
		status = 1;
		goto out;
	}
	if (ck.profile_name) {
		if (first < argc) {
			fprintf(stderr, "hivebridge check: give an engine or --profile, not both\n");
			goto out;
		}
		if (!(p = config_profile(&cfg, ck.profile_name))) {
			fprintf(stderr, "hivebridge check: no engine profile \"%s\"\n", ck.profile_name);
			goto out;
		}
		builtin = !p->kind || !strcmp(p->kind, "builtin");
	} else if (first >= argc) {
		fprintf(stderr, "hivebridge check: ENGINE is missing\nTry 'hivebridge check --help'.\n");
		goto out;
	} else if (engine_from_args(&ck, &cfg, argc - first, argv + first, &p, &builtin, &cl) < 0) {
		goto out;
	}
	/* A Trylobot module's host is resolved now, not inside the loop. */
	const struct protocol *pr = p ? protocol_by_kind(p->kind) : NULL;
	if (pr && pr->target == PROTOCOL_ADDRESS && config_engine_check(&cfg, p, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge check: engine \"%s\": %s\n",
			ck.profile_name ? ck.profile_name : argv[first], err[0] ? err : "cannot work");
		status = 1;
		goto out;
	}
	if (engine_setup(&ck, p, builtin, &cl) < 0)
		goto out;
	status = 1;
	if (data_locate(&ck, &data_own) < 0)
		goto out;
	if (ck.log_path) {
		if (log_open(ck.log_path) < 0) {
			fprintf(stderr, "hivebridge check: log %s: cannot open: %s\n", ck.log_path, strerror(errno));
			goto out;
		}
		logging = 1;
	}
	ck.rng = ck.seed;
	if (ck.positions_from) {
		if (record_file_read(ck.positions_from, &ck.from, &ck.nfrom, err, sizeof err) != 0) {
			fprintf(stderr, "hivebridge check: --positions-from %s\n", err);
			goto out;
		}
		for (size_t i = 0; i < ck.nfrom; i++)
			ck.from_positions += ck.from[i].game.len - (ck.from[i].game.len > 0 &&
								    hive_game_over(&ck.from[i].game.board));
	}

	/* A dead engine must not kill the checker when it writes. */
	signal(SIGPIPE, SIG_IGN);

	if (check_run(&ck) < 0)
		goto out;
	if (ck.json) {
		if (check_report_json(&ck, stdout) < 0) {
			fprintf(stderr, "hivebridge check: cannot build the JSON report\n");
			status = 1;
			goto out;
		}
	} else {
		check_report_text(&ck, stdout);
	}
	fflush(stdout);
	status = check_tally(&ck).required_failures ? 1 : 0;
out:
	hive_records_free(ck.from, ck.nfrom);
	check_free(&ck);
	cmdline_free(&cl);
	config_free(&cfg);
	free(data_own);
	if (logging)
		log_close();
	return status;
}

