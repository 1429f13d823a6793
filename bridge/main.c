/*
 * main.c: the hivebridge command line. One binary; its subcommands are the rows of
 * one table (cmds, tmux's cmd_entry being the model): each protocol served on stdio
 * (uhp, hub, otep: from the protocol table), then serve, check, match, worker, perft,
 * convert, help and version. `hivebridge --help` is printed from the two tables, and a test
 * (tests/integration/docs_tables.sh) checks the man page against it.
 */
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge/check/check.h"
#include "bridge/bot.h"
#include "bridge/config.h"
#include "bridge/convert.h"
#include "bridge/log.h"
#include "bridge/match/match.h"
#include "bridge/match/ratings.h"
#include "bridge/protocol.h"
#include "bridge/record_file.h"
#include "bridge/proc.h"
#include "bridge/server.h"
#include "bridge/util.h"
#include "bridge/version.h"
#include "core/errbuf.h"
#include "core/game.h"

#define PERFT_CLI_MAX_DEPTH 20

/* Exit statuses, the same in every subcommand. */
#define EXIT_USAGE 2      /* a bad command line: unknown option, bad value, missing argument */
#define EXIT_FAIL  1      /* the configuration, the log, an engine or the system failed */

/* A subcommand: its name and other names, its usage (after "hivebridge "), what it
 * does (lines of the overall --help, each indented), and the function that runs it
 * with argv[0] its name. */
struct cmd_entry {
	const char *name;
	const char *alias[3];        /* NULL-terminated */
	const char *usage;
	const char *summary;
	int       (*exec)(int argc, char **argv);
	int         listeners;       /* the summary ends with the default listeners */
};

static int cmd_serve(int argc, char **argv);
static int cmd_perft(int argc, char **argv);
static int cmd_help(int argc, char **argv);
static int cmd_stdio(const struct protocol *pr, int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int usage_error(const char *cmd, const char *fmt, const char *arg);

/* After the protocols served on stdio, which come from the protocol table. */
static const struct cmd_entry cmds[] = {
	{ "serve", { NULL },
	  "serve [--config FILE] [--listen ADDR:PORT] [--engine ENGINE] [--log FILE]\n"
	  "                        [--http ADDR:PORT]",
	  "run the daemon until SIGINT or SIGTERM; without listeners in --config it\n"
	  "serves, on 127.0.0.1 and each with the built-in engine:",
	  cmd_serve, 1 },
	{ "check", { NULL }, "check [OPTIONS] ENGINE | [--config FILE] --profile NAME",
	  "run the conformance suite against an engine and report", check_main, 0 },
	{ "match", { NULL }, "match [OPTIONS] ENGINE_A ENGINE_B",
	  "refereed games between two engines", match_main, 0 },
	{ "tournament", { NULL }, "tournament [OPTIONS] ENGINE ENGINE [ENGINE...]",
	  "a round-robin or gauntlet of N engines, then their rating list", tournament_main, 0 },
	{ "ratings", { NULL }, "ratings [--csv | --json] [--anchor ENGINE] FILE...",
	  "the rating list of every engine in match and tournament --results files",
	  ratings_main, 0 },
	{ "worker", { NULL }, "worker --queue redis://HOST:PORT/NAME [OPTIONS]",
	  "play the games of a match --queue on this machine", worker_main, 0 },
	{ "bot", { NULL }, "bot --url URL --user NAME --password-file FILE --engine ENGINE\n"
	  "                        [--max-games K] [--log FILE] | --config FILE",
	  "play on hivegame.com as a bot account (a [site NAME] of --config, or the\n"
	  "flags), every move checked and timed from the site's clock", bot_main, 0 },
	{ "perft", { NULL }, "perft [--type GAMETYPE | --game GAMESTRING|FILE] DEPTH",
	  "print perft(d) for d = 0..DEPTH with timings", cmd_perft, 0 },
	{ "convert", { NULL }, "convert [--to pgn|hivegame|gamestring|json] FILE...",
	  "convert game records (PGN, BoardSpace SGF, GameStrings), every move checked",
	  convert_main, 0 },
	{ "help", { "--help", "-h", NULL }, "help [COMMAND | config [--markdown | --man]]",
	  "print this text, a command's --help, or every configuration key with its\n"
	  "default and meaning (--markdown: the README's table, --man: the man page's)",
	  cmd_help, 0 },
	{ "version", { "--version", "-V", NULL }, "version",
	  "print the version", cmd_version, 0 },
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; i < NCMDS; i++) {
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
		for (const char *const *a = cmds[i].alias; *a; a++)
			if (!strcmp(*a, name))
				return &cmds[i];
	}
	return NULL;
}

/* "usage: hivebridge USAGE": the first line of a subcommand's --help. */
static void usage_line(FILE *f, const char *name)
{
	fprintf(f, "usage: hivebridge %s\n", cmd_find(name)->usage);
}

static const char usage_exit[] =
	"\n"
	"Exit status: 0 success, 1 a runtime or configuration error (or, for check, a\n"
	"required check failed), 2 a usage error.\n";

static const char usage_stdio_flags[] =
	"  --engine ENGINE   the engine (below; default builtin)\n"
	"  --profile NAME    an [engine NAME] of --config\n"
	"  --config FILE     configuration file\n"
	"  --log FILE        protocol trace log (\"-\" = stderr)\n"
	"  exit status: 0 at the end of input (once the commands queued before it are\n"
	"  answered), 1 on a runtime error or an engine that cannot start (said on stderr\n"
	"  before anything is printed), 2 on a usage error\n"
	"ENGINE:\n";

static const char usage_serve[] =
	"  run the daemon until SIGINT or SIGTERM (SIGHUP reopens the log)\n"
	"  listeners: those of --config; if it has none, the defaults, all on 127.0.0.1\n"
	"  with the built-in engine:\n"
	"  ";
static const char usage_serve_flags[] =
	"  --config FILE       configuration file\n"
	"  --listen ADDR:PORT  where the listener of the default protocol listens (the\n"
	"                      first one; the others are kept); ADDR may be a name,\n"
	"                      resolved at start-up, \"[V6ADDR]:PORT\" or empty for 127.0.0.1\n"
	"  --engine ENGINE     every listener plays with ENGINE (below)\n"
	"  --log FILE          protocol trace log (\"-\" = stderr)\n"
	"  --http ADDR:PORT    serve the web page (watch, play, docs/web.md) there; beyond\n"
	"                      loopback only with an access token (HIVEBRIDGE_HTTP_TOKEN\n"
	"                      or [daemon] http_token_file), which every change then needs\n"
	"  every engine a listener uses is checked at start-up (the command runs, a\n"
	"  server's host resolves); engine failures are reported on stderr\n"
	"  exit status: 0 after SIGINT/SIGTERM, 1 on a runtime, configuration or engine\n"
	"  error, 2 on a usage error\n"
	"ENGINE:\n";

static const char usage_perft[] =
	"  print perft(d) for d = 0..DEPTH (at most 20) with timings\n"
	"  --type GAMETYPE     Base, Base+MLP, ... (default Base)\n"
	"  --game GAMESTRING   from this position\n"
	"  --game FILE         from the end of the one game of a record (PGN, BoardSpace\n"
	"                      SGF or a GameString line: hivebridge convert --help)\n"
	"  exit status: 0 success, 1 when FILE cannot be read or holds an illegal move,\n"
	"  2 on a usage error\n";

/* "UHP on 5000, Hub on 5002, ...": the embedded default listeners. */
static void usage_listeners(FILE *f)
{
	const struct protocol *pr;
	const char *sep = "";

	for (size_t i = 0; (pr = protocol_at(i)) != NULL; i++) {
		if (!pr->front.session_new || !pr->default_port)
			continue;
		fprintf(f, "%s%s on %u", sep, pr->title, (unsigned)pr->default_port);
		sep = ", ";
	}
	fputs("\n", f);
}

/* Text with a line break after each line and indent before it. */
static void usage_indented(FILE *f, const char *indent, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static int usage(FILE *f, int status)
{
	const struct protocol *pr;

	fputs("usage: hivebridge COMMAND [OPTIONS]     (hivebridge COMMAND --help for each)\n\n", f);
	for (size_t i = 0; (pr = protocol_at(i)) != NULL; i++)
		if (pr->stdio)
			fprintf(f, "  %s [--engine ENGINE | --profile NAME] [--config FILE] [--log FILE]\n"
				"        speak %s on stdin/stdout; the moves are played by ENGINE\n",
				pr->name, pr->title);
	for (size_t i = 0; i < NCMDS; i++) {
		const struct cmd_entry *c = &cmds[i];
		const char *usage_nl = strchr(c->usage, '\n');
		fprintf(f, "  %.*s", usage_nl ? (int)(usage_nl - c->usage) : (int)strlen(c->usage), c->usage);
		for (const char *const *a = c->alias; *a; a++)
			fprintf(f, ", %s", *a);
		fputc('\n', f);
		if (usage_nl)     /* the usage's second line, aligned under its first */
			fprintf(f, "        %s\n", usage_nl + 1 + strspn(usage_nl + 1, " "));
		usage_indented(f, "        ", c->summary);
		if (c->listeners) {
			fputs("        ", f);
			usage_listeners(f);
		}
	}
	fputs("\nENGINE, in every command:\n", f);
	protocol_usage_engines(f);
	fputs(usage_exit, f);
	return status;
}

/* `hivebridge help [COMMAND | config [--markdown | --man]]`: a command's own
 * --help, as git does. */
static int cmd_help(int argc, char **argv)
{
	if (argc < 2)
		return usage(stdout, 0);
	const struct protocol *pr = protocol_find(argv[1]);
	const struct cmd_entry *c = cmd_find(argv[1]);
	if (argc == 2 && ((pr && pr->stdio) || (c && c->exec != cmd_help))) {
		char *sub[] = { argv[1], (char *)"--help", NULL };
		return pr && pr->stdio ? cmd_stdio(pr, 2, sub) : c->exec(2, sub);
	}
	if (strcmp(argv[1], "config"))
		return usage_error("help", "unknown topic %s", argv[1]);
	if (argc > 3)
		return usage_error("help", "unexpected argument %s", argv[3]);
	if (argc == 2)
		config_describe(stdout, CONFIG_DOC_TEXT);
	else if (!strcmp(argv[2], "--markdown"))
		config_describe(stdout, CONFIG_DOC_MARKDOWN);
	else if (!strcmp(argv[2], "--man"))
		config_describe(stdout, CONFIG_DOC_MAN);
	else
		return usage_error("help", "unknown option %s", argv[2]);
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	printf("hivebridge %s\n", version_string);
	return 0;
}

/* `hivebridge NAME --help` of a protocol served on stdio. */
static void usage_stdio(const struct protocol *pr)
{
	printf("usage: hivebridge %s [--engine ENGINE | --profile NAME] [--config FILE] [--log FILE]\n"
	       "  speak %s on stdin/stdout, the moves played by ENGINE\n"
	       "  (%s)\n", pr->name, pr->title, pr->description);
	fputs(usage_stdio_flags, stdout);
	protocol_usage_engines(stdout);
}

/* A usage error of a subcommand: the message, a pointer to --help, status 2. */
static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "hivebridge %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'hivebridge %s --help'.\n", cmd);
	return EXIT_USAGE;
}

/* Common flags; each subcommand accepts the ones it names. */
struct cli {
	const char *engine;
	const char *profile;
	const char *config;
	const char *log;
	const char *listen;
	const char *http;
	const char *type;
	const char *game;
	const char *arg;      /* the one positional argument (perft's depth) */
	int         help;
};

/* Parses argv[1..] of a subcommand; allowed lists the flags it takes. Returns 0,
 * or EXIT_USAGE after saying what is wrong. */
static int cli_parse(int argc, char **argv, const char *allowed, struct cli *cli)
{
	static const struct { const char *flag; size_t off; } flags[] = {
		{ "--engine", offsetof(struct cli, engine) },
		{ "--profile", offsetof(struct cli, profile) },
		{ "--config", offsetof(struct cli, config) },
		{ "--log", offsetof(struct cli, log) },
		{ "--listen", offsetof(struct cli, listen) },
		{ "--http", offsetof(struct cli, http) },
		{ "--type", offsetof(struct cli, type) },
		{ "--game", offsetof(struct cli, game) },
	};
	memset(cli, 0, sizeof *cli);
	for (int i = 1; i < argc; i++) {
		size_t k, n = sizeof flags / sizeof flags[0];
		const char *a = argv[i];
		const char *eq = strchr(a, '=');
		size_t alen = eq ? (size_t)(eq - a) : strlen(a);
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli->help = 1;
			return 0;
		}
		if (a[0] != '-' || (a[1] >= '0' && a[1] <= '9')) {
			if (cli->arg)
				return usage_error(argv[0], "unexpected argument %s", a);
			cli->arg = a;
			continue;
		}
		for (k = 0; k < n; k++)
			if (strlen(flags[k].flag) == alen && !strncmp(flags[k].flag, a, alen))
				break;
		if (k == n || !strstr(allowed, flags[k].flag))
			return usage_error(argv[0], "unknown option %s", a);
		const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!v || !*v)
			return usage_error(argv[0], "%s needs a value", flags[k].flag);
		*(const char **)((char *)cli + flags[k].off) = v;
	}
	return 0;
}

/* Loads the configuration file, if any, over the defaults. The cause names the
 * file once. */
static int load_config(const char *cmd, struct config *c, const struct cli *cli)
{
	char err[512];
	config_defaults(c);
	if (cli->config && config_load(c, cli->config, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge %s: %s\n", cmd, err);
		config_free(c);
		return -1;
	}
	return 0;
}

static int open_log(const char *cmd, const struct config *c, const struct cli *cli)
{
	const char *path = cli->log ? cli->log : c->log_path;
	if (path && log_open(path) < 0) {
		fprintf(stderr, "hivebridge %s: log %s: cannot open: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The engine --engine or --profile names (default "builtin"), in the one ENGINE
 * syntax; its fixed depth, if any, into *depth. EXIT_USAGE after the message. */
static int pick_engine(const char *cmd, struct config *c, const struct cli *cli,
		       const struct engine_profile **out, int *depth)
{
	char err[256];
	*depth = 0;
	if (cli->engine) {
		*out = config_engine_parse(c, cli->engine, depth, err, sizeof err);
		if (*out && config_engine_movetime(cli->engine))
			snprintf(err, sizeof err, "builtin:movetime=MS is for match and tournament (here "
				 "each client's go command sets the time)");
		if (!*out || config_engine_movetime(cli->engine)) {
			fprintf(stderr, "hivebridge %s: engine \"%s\": %s\n", cmd, cli->engine, err);
			return EXIT_USAGE;
		}
		return 0;
	}
	*out = config_profile(c, cli->profile ? cli->profile : "builtin");
	if (!*out) {
		fprintf(stderr, "hivebridge %s: no engine profile \"%s\"\n", cmd,
			cli->profile ? cli->profile : "builtin");
		return EXIT_USAGE;
	}
	return 0;
}

/* State of a stdio command (`hivebridge uhp`, ...). */
struct stdio_run {
	struct event_base  *base;
	int                 done;
};

static void stdio_closed(void *arg)
{
	struct stdio_run *r = arg;
	r->done = 1;
	event_base_loopbreak(r->base);
}

static void on_terminate(evutil_socket_t sig, short what, void *arg)
{
	struct stdio_run *r = arg;
	log_note(0, "signal %d: exiting", (int)sig);
	event_base_loopbreak(r->base);
}

static void on_hup(evutil_socket_t sig, short what, void *arg)
{
	if (log_reopen() < 0)
		fprintf(stderr, "hivebridge: cannot reopen the log\n");
}

/* epoll refuses regular files and /dev/null: use it only for pipes and sockets. */
static int epoll_ok(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* `hivebridge NAME` (uhp, hub, ...): one session of the protocol's front end on
 * stdin/stdout, driving the engine --engine or --profile names. */
static int cmd_stdio(const struct protocol *pr, int argc, char **argv)
{
	const char *protocol = pr->name;
	const struct front *front = &pr->front;
	void *session = NULL;
	struct cli cli;
	struct config c;
	struct stdio_run run = { 0 };
	const struct engine_profile *p = NULL;
	struct event_config *ecfg;
	struct event *sig_int = NULL, *sig_term = NULL, *sig_hup = NULL;
	struct bufferevent *in, *out;
	char err[256], *start_failed = NULL;
	int flags0, flags1, depth, rc, status = EXIT_FAIL;

	if ((rc = cli_parse(argc, argv, "--engine --profile --config --log", &cli)) != 0)
		return rc;
	if (cli.help) {
		usage_stdio(pr);
		return 0;
	}
	if (cli.arg)
		return usage_error(protocol, "unexpected argument %s", cli.arg);
	if (cli.engine && cli.profile)
		return usage_error(protocol, "%s", "--engine and --profile exclude each other");
	if (load_config(protocol, &c, &cli) < 0)
		return EXIT_FAIL;
	if ((rc = pick_engine(protocol, &c, &cli, &p, &depth)) != 0) {
		config_free(&c);
		return rc;
	}
	/* An engine that cannot work ends the command before it says anything, as
	 * serve does (a client would take a bridge that answers for a working engine);
	 * this also resolves a module's host now rather than inside the loop. */
	if (config_engine_check(&c, p, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge %s: engine \"%s\": %s\n", protocol,
			cli.engine ? cli.engine : p->name, err);
		config_free(&c);
		return EXIT_FAIL;
	}
	if (open_log(protocol, &c, &cli) < 0) {
		config_free(&c);
		return EXIT_FAIL;
	}

	/* The built-in engine hands results over from its worker thread. */
	evthread_use_pthreads();
	ecfg = event_config_new();
	if (ecfg && (!epoll_ok(STDIN_FILENO) || !epoll_ok(STDOUT_FILENO)))
		event_config_avoid_method(ecfg, "epoll");
	run.base = ecfg ? event_base_new_with_config(ecfg) : NULL;
	if (ecfg)
		event_config_free(ecfg);
	if (!run.base) {
		fprintf(stderr, "hivebridge %s: cannot create the event loop\n", protocol);
		log_close();
		config_free(&c);
		return 1;
	}

	flags0 = fcntl(STDIN_FILENO, F_GETFL);
	flags1 = fcntl(STDOUT_FILENO, F_GETFL);
	evutil_make_socket_nonblocking(STDIN_FILENO);
	evutil_make_socket_nonblocking(STDOUT_FILENO);
	in = bufferevent_socket_new(run.base, STDIN_FILENO, 0);
	out = bufferevent_socket_new(run.base, STDOUT_FILENO, 0);
	if (!in || !out) {
		fprintf(stderr, "hivebridge %s: cannot set up stdio\n", protocol);
		if (in)
			bufferevent_free(in);
		if (out)
			bufferevent_free(out);
		goto out;
	}
	struct session_limits lim = { .max_line = c.max_line, .max_buffer = c.max_buffer,
				      .depth = depth, .start_failed = &start_failed };
	session = front->session_new(run.base, in, out, 0, p, &lim, stdio_closed, &run);
	if (!session) {
		fprintf(stderr, "hivebridge %s: cannot start the session\n", protocol);
		goto out;
	}
	sig_int = evsignal_new(run.base, SIGINT, on_terminate, &run);
	sig_term = evsignal_new(run.base, SIGTERM, on_terminate, &run);
	sig_hup = evsignal_new(run.base, SIGHUP, on_hup, &run);
	if (sig_int)
		evsignal_add(sig_int, NULL);
	if (sig_term)
		evsignal_add(sig_term, NULL);
	if (sig_hup)
		evsignal_add(sig_hup, NULL);

	event_base_dispatch(run.base);
	status = 0;
	if (start_failed) {
		fprintf(stderr, "hivebridge %s: engine \"%s\": %s\n", protocol,
			cli.engine ? cli.engine : p->name, start_failed);
		status = EXIT_FAIL;
	}
out:
	/* Reverse order of acquisition. A dying external engine is escalated
	 * (exit, SIGTERM, SIGKILL) and reaped before the base goes. */
	front->session_free(session);
	proc_drain(run.base, 2 * (p ? p->stop_timeout_ms : 0) + 1000);
	if (sig_hup)
		event_free(sig_hup);
	if (sig_term)
		event_free(sig_term);
	if (sig_int)
		event_free(sig_int);
	event_base_free(run.base);
	if (flags0 >= 0)
		fcntl(STDIN_FILENO, F_SETFL, flags0);
	if (flags1 >= 0)
		fcntl(STDOUT_FILENO, F_SETFL, flags1);
	log_close();
	config_free(&c);
	free(start_failed);
	return status;
}

/* g (inited, empty) becomes the end of the one game of a record file; else the
 * exit status after saying why. */
static int perft_game_file(const char *path, struct hive_game *g)
{
	struct hive_record *v;
	size_t n;
	char err[768];

	if (record_file_read(path, &v, &n, err, sizeof err) != 0) {
		fprintf(stderr, "hivebridge perft: --game %s\n", err);
		hive_game_free(g);
		return EXIT_FAIL;
	}
	if (n != 1) {
		hive_records_free(v, n);
		hive_game_free(g);
		return usage_error("perft", "--game %s: holds more than one game", path);
	}
	hive_game_free(g);
	*g = v[0].game;
	hive_game_init(&v[0].game, 0);
	hive_records_free(v, n);
	return 0;
}

static int cmd_perft(int argc, char **argv)
{
	struct cli cli;
	struct hive_game g;
	char err[512];
	unsigned type = 0;
	char *end;
	int rc;

	if ((rc = cli_parse(argc, argv, "--type --game", &cli)) != 0)
		return rc;
	if (cli.help) {
		usage_line(stdout, "perft");
		fputs(usage_perft, stdout);
		return 0;
	}
	if (!cli.arg)
		return usage_error("perft", "%s", "DEPTH is missing");
	long depth = strtol(cli.arg, &end, 10);
	if (*end || end == cli.arg || depth < 0 || depth > PERFT_CLI_MAX_DEPTH)
		return usage_error("perft", "DEPTH must be 0..20, not %s", cli.arg);
	if (cli.type && cli.game)
		return usage_error("perft", "%s", "--type and --game exclude each other");
	if (cli.type && hive_gametype_parse(cli.type, &type) != 0)
		return usage_error("perft", "unknown game type %s", cli.type);
	hive_game_init(&g, type);
	if (cli.game && hive_game_parse(&g, cli.game, err, sizeof err) != HIVE_OK) {
		/* Not a GameString: a record's file, when there is one by that name. */
		if (access(cli.game, F_OK) != 0) {
			hive_game_free(&g);
			return usage_error("perft", "--game: %s", err);
		}
		if ((rc = perft_game_file(cli.game, &g)) != 0)
			return rc;
	}
	/* On this thread, unstoppable (^C ends the process); each line as it is counted. */
	for (int d = 0; d <= depth; d++) {
		struct hive_board b = g.board;
		char line[128];
		int64_t t0 = now_us();
		int64_t n = hive_perft(&b, d, NULL, NULL);
		hive_perft_format(line, sizeof line, d, (uint64_t)n, (uint64_t)(now_us() - t0));
		puts(line);
		fflush(stdout);
	}
	hive_game_free(&g);
	return 0;
}

/* --listen "ADDR:PORT", "[V6ADDR]:PORT" or ":PORT" (127.0.0.1) into the first
 * listener of the default protocol. A name is resolved here, before any loop runs.
 * -1 with err. */
static int apply_listen(struct config *c, const char *spec, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':');
	const struct protocol *d = protocol_default();
	struct listener_conf *l = NULL;
	char *end, host[INET6_ADDRSTRLEN];

	for (size_t i = 0; i < c->nlisteners && !l; i++)
		if (!strcmp(c->listeners[i].protocol, d->name))
			l = &c->listeners[i];
	if (!l)
		return errbuf_set(err, errlen, "no %s listener to apply it to (the configuration has none)",
				  d->title);
	long port = colon ? strtol(colon + 1, &end, 10) : -1;
	if (!colon || *end || end == colon + 1 || port < 0 || port > 65535)
		return errbuf_set(err, errlen, "want ADDR:PORT, PORT 0..65535");
	const char *a = spec;
	size_t alen = (size_t)(colon - spec);
	if (alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
		a++;
		alen -= 2;
	}
	char *name = alen ? strndup(a, alen) : strdup("127.0.0.1");
	if (!name)
		return errbuf_set(err, errlen, "out of memory");
	int rc = util_resolve(name, AI_PASSIVE, host, sizeof host, err, errlen);
	free(name);
	if (rc < 0)
		return -1;
	if (!(name = strdup(host)))
		return errbuf_set(err, errlen, "out of memory");
	free(l->address);
	l->address = name;
	l->port = (uint16_t)port;
	return 0;
}

static int cmd_serve(int argc, char **argv)
{
	struct cli cli;
	struct config c;
	char err[256];
	int rc, depth = 0;

	if ((rc = cli_parse(argc, argv, "--config --listen --engine --log --http", &cli)) != 0)
		return rc;
	if (cli.help) {
		usage_line(stdout, "serve");
		fputs(usage_serve, stdout);
		usage_listeners(stdout);
		fputs(usage_serve_flags, stdout);
		protocol_usage_engines(stdout);
		return 0;
	}
	if (cli.arg)
		return usage_error("serve", "unexpected argument %s", cli.arg);
	if (load_config("serve", &c, &cli) < 0)
		return EXIT_FAIL;
	if (cli.listen && apply_listen(&c, cli.listen, err, sizeof err) < 0) {
		fprintf(stderr, "hivebridge serve: --listen %s: %s\n", cli.listen, err);
		config_free(&c);
		return EXIT_USAGE;
	}
	if (cli.engine) {
		const struct engine_profile *p;
		if ((rc = pick_engine("serve", &c, &cli, &p, &depth)) != 0) {
			config_free(&c);
			return rc;
		}
		/* Every listener plays with the engine given on the command line. */
		for (size_t i = 0; i < c.nlisteners; i++) {
			char *name = strdup(p->name);
			if (!name)
				break;
			free(c.listeners[i].engine);
			c.listeners[i].engine = name;
			if (depth)
				c.listeners[i].depth = depth;
		}
	}
	/* Every engine a listener will use must be able to work: say so now, not to
	 * the first client. */
	rc = 0;
	for (size_t i = 0; i < c.nlisteners; i++) {
		const struct listener_conf *l = &c.listeners[i];
		const struct engine_profile *p = config_profile(&c, l->engine);
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(c.listeners[j].engine, l->engine);
		if (!p || seen)
			continue;
		if (config_engine_check(&c, p, err, sizeof err) < 0) {
			fprintf(stderr, "hivebridge serve: engine \"%s\" of listener %s: %s\n",
				cli.engine ? cli.engine : p->name, l->name, err);
			rc = -1;
		}
	}
	if (rc < 0) {
		config_free(&c);
		return EXIT_FAIL;
	}
	if (cli.log) {
		char *path = strdup(cli.log);
		if (path) {
			free(c.log_path);
			c.log_path = path;
		}
	}
	if (cli.http) {
		char *spec = strdup(cli.http);
		if (spec) {
			free(c.http);
			c.http = spec;
		}
	}
	log_warn_stderr(1);
	evthread_use_pthreads();
	rc = server_run(&c);
	config_free(&c);
	return rc < 0 ? EXIT_FAIL : 0;
}

/* Environment variables that hold secrets: taken out of the environment (and out
 * of /proc/PID/environ) before anything else, so that no engine ever sees them. */
static const char *const secret_env_names[] = {
	"HIVEBRIDGE_REDIS_PASSWORD",     /* bridge/match/queue.c */
	"HIVEBRIDGE_HTTP_TOKEN",         /* bridge/http/http.c */
	BOT_PASSWORD_ENV,                /* bridge/bot.c */
	NULL
};

int main(int argc, char **argv)
{
	util_take_secret_envs(secret_env_names);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage(stderr, EXIT_USAGE);
	const char *cmd = argv[1];
	const struct protocol *pr = protocol_find(cmd);
	if (pr && pr->stdio)
		return cmd_stdio(pr, argc - 1, argv + 1);
	const struct cmd_entry *c = cmd_find(cmd);
	if (c)
		return c->exec(argc - 1, argv + 1);
	fprintf(stderr, "hivebridge: unknown command %s\nTry 'hivebridge --help'.\n", cmd);
	return EXIT_USAGE;
}
