/*
 * main.c: the hivebridge command line. One binary, a few subcommands:
 *
 *   hivebridge uhp [--engine CMD | --profile NAME] [--config FILE] [--log FILE]
 *   hivebridge hub [--engine CMD | --profile NAME] [--config FILE] [--log FILE]
 *   hivebridge perft [--type GAMETYPE | --game GAMESTRING] DEPTH
 *   hivebridge serve [--config FILE] [--listen ADDR:PORT] [--engine CMD] [--log FILE]
 *   hivebridge --version | help
 */
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/thread.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge/check.h"
#include "bridge/config.h"
#include "bridge/engine_builtin.h"
#include "bridge/front.h"
#include "bridge/log.h"
#include "bridge/match.h"
#include "bridge/proc.h"
#include "bridge/server.h"
#include "core/game.h"

#define PERFT_CLI_MAX_DEPTH 20

static const char usage_text[] =
	"usage: hivebridge COMMAND [OPTIONS]\n"
	"\n"
	"  uhp [--engine CMD | --profile NAME] [--config FILE] [--log FILE]\n"
	"        speak UHP on stdin/stdout; the moves are played by the built-in engine,\n"
	"        an external UHP engine (--engine \"path args\") or a configured profile\n"
	"  hub [--engine CMD | --profile NAME] [--config FILE] [--log FILE]\n"
	"        speak Hub (docs/hub-hive.md) on stdin/stdout, with the same engines;\n"
	"        --engine \"hub:path args\" runs an external Hub engine\n"
	"  perft [--type GAMETYPE | --game GAMESTRING] DEPTH\n"
	"        print perft(d) for d = 0..DEPTH with timings\n"
	"  serve [--config FILE] [--listen ADDR:PORT] [--engine CMD] [--log FILE]\n"
	"        run the daemon (UHP, Hub and Trylobot listeners over TCP) until SIGINT or SIGTERM\n"
	"  check [--json] [--timeout-ms N] [--time-margin-ms N] [--positions N] [--seed S]\n"
	"        [--data DIR] [--verbose] [--log FILE] ENGINE | [--config FILE] --profile NAME\n"
	"        ENGINE: -- CMD... | \"CMD ARGS\" | builtin | uhp:CMD | hub:CMD | trylobot:HOST:PORT\n"
	"        run the conformance suite against an engine and report\n"
	"  match [options] ENGINE_A ENGINE_B\n"
	"        refereed games between two engines (hivebridge match --help)\n"
	"  --version    print the version\n"
	"  help         print this text\n";

static int usage(FILE *f, int status)
{
	fputs(usage_text, f);
	return status;
}

/* Common flags; each subcommand accepts the ones it names. */
struct cli {
	const char *engine;
	const char *profile;
	const char *config;
	const char *log;
	const char *listen;
	const char *type;
	const char *game;
	const char *arg;      /* the one positional argument (perft's depth) */
};

/* Parses argv[1..] of a subcommand; allowed lists the flags it takes. */
static int cli_parse(int argc, char **argv, const char *allowed, struct cli *cli)
{
	static const struct { const char *flag; size_t off; } flags[] = {
		{ "--engine", offsetof(struct cli, engine) },
		{ "--profile", offsetof(struct cli, profile) },
		{ "--config", offsetof(struct cli, config) },
		{ "--log", offsetof(struct cli, log) },
		{ "--listen", offsetof(struct cli, listen) },
		{ "--type", offsetof(struct cli, type) },
		{ "--game", offsetof(struct cli, game) },
	};
	memset(cli, 0, sizeof *cli);
	for (int i = 1; i < argc; i++) {
		size_t k, n = sizeof flags / sizeof flags[0];
		const char *a = argv[i];
		const char *eq = strchr(a, '=');
		size_t alen = eq ? (size_t)(eq - a) : strlen(a);
		if (a[0] != '-' || (a[1] >= '0' && a[1] <= '9')) {
			if (cli->arg) {
				fprintf(stderr, "hivebridge %s: unexpected argument %s\n", argv[0], a);
				return -1;
			}
			cli->arg = a;
			continue;
		}
		for (k = 0; k < n; k++)
			if (strlen(flags[k].flag) == alen && !strncmp(flags[k].flag, a, alen))
				break;
		if (k == n || !strstr(allowed, flags[k].flag)) {
			fprintf(stderr, "hivebridge %s: unknown option %s\n", argv[0], a);
			return -1;
		}
		const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!v) {
			fprintf(stderr, "hivebridge %s: %s needs a value\n", argv[0], flags[k].flag);
			return -1;
		}
		*(const char **)((char *)cli + flags[k].off) = v;
	}
	return 0;
}

/* Loads the configuration file, if any, over the defaults. */
static int load_config(struct config *c, const struct cli *cli)
{
	char *cause = NULL;
	config_defaults(c);
	if (cli->config && config_load(c, cli->config, &cause) < 0) {
		fprintf(stderr, "hivebridge: %s: %s\n", cli->config, cause ? cause : "cannot load");
		free(cause);
		config_free(c);
		return -1;
	}
	return 0;
}

static int open_log(const struct config *c, const struct cli *cli)
{
	const char *path = cli->log ? cli->log : c->log_path;
	if (path && log_open(path) < 0) {
		fprintf(stderr, "hivebridge: cannot open log %s\n", path);
		return -1;
	}
	return 0;
}

/* State of `hivebridge uhp`. */
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

/* `hivebridge uhp` and `hivebridge hub`: one session of the protocol's front end on
 * stdin/stdout, driving the engine --engine or --profile names. */
static int cmd_stdio(const char *protocol, int argc, char **argv)
{
	const struct front *front = front_find(protocol);
	void *session = NULL;
	struct cli cli;
	struct config c;
	struct stdio_run run = { 0 };
	const struct engine_profile *p;
	struct event_config *ecfg;
	struct event *sig_int = NULL, *sig_term = NULL, *sig_hup = NULL;
	struct bufferevent *in, *out;
	char *cause = NULL;
	int flags0, flags1, status = 1;

	if (cli_parse(argc, argv, "--engine --profile --config --log", &cli) < 0 || cli.arg)
		return usage(stderr, 2);
	if (cli.engine && cli.profile) {
		fprintf(stderr, "hivebridge %s: --engine and --profile exclude each other\n", protocol);
		return 2;
	}
	if (load_config(&c, &cli) < 0)
		return 1;
	if (cli.engine)
		p = config_add_command(&c, NULL, cli.engine, &cause);
	else
		p = config_profile(&c, cli.profile ? cli.profile : "builtin");
	if (!p) {
		if (cause)
			fprintf(stderr, "hivebridge %s: %s\n", protocol, cause);
		else
			fprintf(stderr, "hivebridge %s: no engine profile \"%s\"\n", protocol,
				cli.profile ? cli.profile : "builtin");
		free(cause);
		config_free(&c);
		return 1;
	}
	if (open_log(&c, &cli) < 0) {
		config_free(&c);
		return 1;
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
	struct session_limits lim = { .max_line = c.max_line, .max_buffer = c.max_buffer };
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
	return status;
}

/* `hivebridge hub`: cmd_uhp with a Hub session. "--engine hub:CMD" names an external
 * Hub engine; any other --engine is what cmd_uhp takes. */
static int cmd_uhp(int argc, char **argv)
{
	return cmd_stdio("uhp", argc, argv);
}

static int cmd_hub(int argc, char **argv)
{
	return cmd_stdio("hub", argc, argv);
}

static int cmd_perft(int argc, char **argv)
{
	struct cli cli;
	struct hive_game g;
	char err[512];
	unsigned type = 0;
	char *end;

	if (cli_parse(argc, argv, "--type --game", &cli) < 0 || !cli.arg)
		return usage(stderr, 2);
	long depth = strtol(cli.arg, &end, 10);
	if (*end || end == cli.arg || depth < 0 || depth > PERFT_CLI_MAX_DEPTH) {
		fprintf(stderr, "hivebridge perft: DEPTH must be 0..%d\n", PERFT_CLI_MAX_DEPTH);
		return 2;
	}
	if (cli.type && cli.game) {
		fprintf(stderr, "hivebridge perft: --type and --game exclude each other\n");
		return 2;
	}
	if (cli.type && hive_gametype_parse(cli.type, &type) != 0) {
		fprintf(stderr, "hivebridge perft: unknown game type %s\n", cli.type);
		return 2;
	}
	hive_game_init(&g, type);
	if (cli.game && hive_game_parse(&g, cli.game, err, sizeof err) != HIVE_OK) {
		fprintf(stderr, "hivebridge perft: %s\n", err);
		hive_game_free(&g);
		return 2;
	}
	for (int d = 0; d <= depth; d++) {
		struct hive_board b = g.board;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		uint64_t n = hive_perft(&b, d);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		uint64_t us = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000u +
			(uint64_t)((t1.tv_nsec - t0.tv_nsec) / 1000);
		printf("perft(%d) = %llu in %llu ms. %llu KN/s\n", d, (unsigned long long)n,
		       (unsigned long long)(us / 1000), (unsigned long long)(us ? n * 1000 / us : 0));
		fflush(stdout);
	}
	hive_game_free(&g);
	return 0;
}

/* "ADDR:PORT", "[V6ADDR]:PORT" or ":PORT" into the first listener; port 0 lets
 * the system choose (the "listening on" line says which). */
static int apply_listen(struct config *c, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	if (!colon || c->nlisteners == 0)
		return -1;
	long port = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || port < 0 || port > 65535)
		return -1;
	const char *a = spec;
	size_t alen = (size_t)(colon - spec);
	if (alen >= 2 && a[0] == '[' && a[alen - 1] == ']') {
		a++;
		alen -= 2;
	}
	char *addr = alen ? strndup(a, alen) : strdup("127.0.0.1");
	if (!addr)
		return -1;
	free(c->listeners[0].address);
	c->listeners[0].address = addr;
	c->listeners[0].port = (uint16_t)port;
	return 0;
}

static int cmd_serve(int argc, char **argv)
{
	struct cli cli;
	struct config c;
	char *cause = NULL;
	int rc;

	if (cli_parse(argc, argv, "--config --listen --engine --log", &cli) < 0 || cli.arg)
		return usage(stderr, 2);
	if (load_config(&c, &cli) < 0)
		return 1;
	if (cli.listen && apply_listen(&c, cli.listen) < 0) {
		fprintf(stderr, "hivebridge serve: bad --listen %s (want ADDR:PORT)\n", cli.listen);
		config_free(&c);
		return 2;
	}
	if (cli.engine) {
		const struct engine_profile *p = config_add_command(&c, NULL, cli.engine, &cause);
		if (!p) {
			fprintf(stderr, "hivebridge serve: %s\n", cause ? cause : "bad --engine");
			free(cause);
			config_free(&c);
			return 2;
		}
		/* Every listener plays with the engine given on the command line. */
		for (size_t i = 0; i < c.nlisteners; i++) {
			char *name = strdup(p->name);
			if (!name)
				break;
			free(c.listeners[i].engine);
			c.listeners[i].engine = name;
		}
	}
	if (cli.log) {
		char *path = strdup(cli.log);
		if (path) {
			free(c.log_path);
			c.log_path = path;
		}
	}
	evthread_use_pthreads();
	rc = server_run(&c);
	config_free(&c);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage(stderr, 2);
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("hivebridge %s\n", HIVEBRIDGE_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		return usage(stdout, 0);
	if (!strcmp(cmd, "uhp"))
		return cmd_uhp(argc - 1, argv + 1);
	if (!strcmp(cmd, "hub"))
		return cmd_hub(argc - 1, argv + 1);
	if (!strcmp(cmd, "perft"))
		return cmd_perft(argc - 1, argv + 1);
	if (!strcmp(cmd, "serve"))
		return cmd_serve(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return check_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "match"))
		return match_main(argc - 1, argv + 1);
	fprintf(stderr, "hivebridge: unknown command %s\n", cmd);
	return usage(stderr, 2);
}
