/*
 * config.c: the daemon's configuration: embedded defaults, then an INI file read
 * with inih over them. Every error names the file's line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/protocol.h"
#include "bridge/referee.h"
#include "bridge/util.h"

#define DEFAULT_START_MS   10000
#define DEFAULT_COMMAND_MS 10000
#define DEFAULT_STOP_MS    2000
#define DEFAULT_HASH_MB    16
#define DEFAULT_HASH_MB_MAX 256

static void set_str(char **dst, const char *v);

/* State of one config_load(). */
struct config_parse {
	struct config *c;
	FILE          *f;
	int            lineno;        /* line inih is handling */
	char          *line;          /* the line read (getline's buffer) */
	size_t         line_cap;
	char          *cause;         /* first error, already prefixed with the line */
	int            cause_line;
};

static void argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* Splits a command line on blanks. Single quotes are literal, double quotes allow
 * \" and \\, a backslash outside quotes escapes the next byte. NULL-terminated
 * result (caller frees with argv_free); NULL with *cause on error. */
static char **command_split(const char *s, char **cause)
{
	size_t n = 0, cap = 4;
	char **argv = xreallocarray(NULL, cap, sizeof *argv);
	char *word = xreallocarray(NULL, strlen(s) + 1, 1);

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t len = 0;
		char quote = 0;
		while (*s && (quote || (*s != ' ' && *s != '\t'))) {
			char ch = *s++;
			if (quote == '\'') {
				if (ch == '\'')
					quote = 0;
				else
					word[len++] = ch;
			} else if (ch == '\\' && *s && (!quote || *s == '"' || *s == '\\')) {
				word[len++] = *s++;
			} else if (quote == '"' && ch == '"') {
				quote = 0;
			} else if (!quote && (ch == '"' || ch == '\'')) {
				quote = ch;
			} else {
				word[len++] = ch;
			}
		}
		if (quote) {
			*cause = xasprintf("unbalanced %c quote in command", quote);
			word[0] = 0;
			free(word);
			argv[n] = NULL;
			argv_free(argv);
			return NULL;
		}
		word[len] = 0;
		if (n + 2 > cap) {
			cap *= 2;
			argv = xreallocarray(argv, cap, sizeof *argv);
		}
		argv[n++] = xstrdup(word);
	}
	free(word);
	argv[n] = NULL;
	if (n == 0) {
		argv_free(argv);
		*cause = xasprintf("empty command");
		return NULL;
	}
	return argv;
}

static void profile_init(struct engine_profile *p, const char *name, const char *kind)
{
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->kind = xstrdup(kind);
	p->start_timeout_ms = DEFAULT_START_MS;
	p->command_timeout_ms = DEFAULT_COMMAND_MS;
	p->stop_timeout_ms = DEFAULT_STOP_MS;
	p->hash_mb = DEFAULT_HASH_MB;
	p->hash_mb_max = DEFAULT_HASH_MB_MAX;
}

static void profile_clear(struct engine_profile *p)
{
	free(p->name);
	free(p->kind);
	argv_free(p->argv);
	free(p->workdir);
	free(p->host);
	for (size_t i = 0; i < p->noptions; i++) {
		free(p->options[i][0]);
		free(p->options[i][1]);
	}
	memset(p, 0, sizeof *p);
}

static struct engine_profile *profile_add(struct config *c, const char *name, const char *kind)
{
	c->profiles = xreallocarray(c->profiles, c->nprofiles + 1, sizeof *c->profiles);
	struct engine_profile *p = &c->profiles[c->nprofiles++];
	profile_init(p, name, kind);
	return p;
}

static struct listener_conf *listener_find(struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nlisteners; i++)
		if (!strcmp(c->listeners[i].name, name))
			return &c->listeners[i];
	return NULL;
}

static void listener_clear(struct listener_conf *l)
{
	free(l->name);
	free(l->protocol);
	free(l->address);
	free(l->engine);
	lobby_conf_clear(&l->lobby);
}

static struct listener_conf *listener_add(struct config *c, const char *name)
{
	c->listeners = xreallocarray(c->listeners, c->nlisteners + 1, sizeof *c->listeners);
	struct listener_conf *l = &c->listeners[c->nlisteners++];
	memset(l, 0, sizeof *l);
	l->name = xstrdup(name);
	l->protocol = xstrdup(protocol_default()->name);
	l->address = xstrdup("127.0.0.1");
	l->port = protocol_default()->default_port;
	l->engine = xstrdup("builtin");
	l->think_ms = 1000;
	l->idle_timeout_ms = 300 * 1000;
	l->game_idle_timeout_ms = 3600 * 1000;
	l->max_depth = 32;
	l->max_think_ms = 60000;
	lobby_conf_defaults(&l->lobby);
	return l;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->max_sessions = 1000;
	c->max_sessions_per_peer = 32;
	c->http_max_connections = 256;
	c->http_max_connections_per_address = 64;
	c->http_head_timeout_ms = 10000;
	c->http_max_head = 32768;
	c->max_line = 65536;
	c->max_buffer = 1048576;
	c->hash_budget_mb = 512;
	c->hash_idle_timeout = 60;
	c->http_play_move_ms = 1800000;
	c->http_play_max_plies = REFEREE_MAX_PLIES;
	profile_add(c, "builtin", "builtin");
	/* One listener per protocol, so that a client of any of them can connect. */
	const struct protocol *pr;
	for (size_t i = 0; (pr = protocol_at(i)) != NULL; i++) {
		if (!pr->front.session_new || !pr->default_port)
			continue;
		struct listener_conf *l = listener_add(c, pr->name);
		set_str(&l->protocol, pr->name);
		l->port = pr->default_port;
	}
	c->listeners_default = 1;
}

const struct engine_profile *config_profile(const struct config *c, const char *name)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		if (!strcmp(c->profiles[i].name, name))
			return &c->profiles[i];
	return NULL;
}

void config_free(struct config *c)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		profile_clear(&c->profiles[i]);
	free(c->profiles);
	for (size_t i = 0; i < c->nlisteners; i++)
		listener_clear(&c->listeners[i]);
	free(c->listeners);
	free(c->log_path);
	free(c->http);
	free(c->http_token_file);
	free(c->http_hosts);
	memset(c, 0, sizeof *c);
}

/* "builtin" or a protocol with a back end. */
static int kind_known(const char *s)
{
	const struct protocol *pr = protocol_by_kind(s);
	return !strcmp(s, "builtin") || (pr && pr->back_new);
}

/* A protocol with a front end. */
static int protocol_known(const char *s)
{
	const struct protocol *pr = protocol_find(s);
	return pr && pr->front.session_new;
}

/* Seconds (decimals allowed) to milliseconds, in (0, one day]; -1 if not. */
static int parse_seconds(const char *s, unsigned *ms)
{
	char *end;
	if ((*s < '0' || *s > '9') && *s != '.')
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 86400)
		return -1;
	double r = ceil(v * 1000);
	*ms = (unsigned)r;
	return 0;
}

static int parse_address(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1 ? 0 : -1;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* "Name Value" into the profile's options (a repeated name replaces its value). */
static int profile_option(struct engine_profile *p, const char *v, char **why)
{
	size_t nlen = strcspn(v, " \t");
	const char *val = v + nlen;
	val += strspn(val, " \t");
	if (nlen == 0 || !*val || memchr(v, ';', nlen)) {
		*why = xasprintf("option must be \"Name Value\" (name without spaces or ';')");
		return -1;
	}
	char *name = strndup(v, nlen);
	if (!name)
		abort();
	for (size_t i = 0; i < p->noptions; i++) {
		if (!strcmp(p->options[i][0], name)) {
			free(name);
			set_str(&p->options[i][1], val);
			return 0;
		}
	}
	if (p->noptions == CONFIG_MAX_OPTIONS) {
		free(name);
		*why = xasprintf("more than %d options", CONFIG_MAX_OPTIONS);
		return -1;
	}
	p->options[p->noptions][0] = name;
	p->options[p->noptions][1] = xstrdup(val);
	p->noptions++;
	return 0;
}

static int engine_key(struct config *c, const char *pname, const char *k, const char *v, char **why)
{
	struct engine_profile *p = (struct engine_profile *)config_profile(c, pname);
	unsigned long long n;

	if (!p)
		p = profile_add(c, pname, protocol_default()->kind);
	if (!strcmp(k, "kind")) {
		if (!kind_known(v)) {
			char names[256];
			*why = xasprintf("unknown engine kind \"%s\" (builtin, %s)", v,
					 protocol_names(names, sizeof names, 1));
			return -1;
		}
		set_str(&p->kind, v);
	} else if (!strcmp(k, "command")) {
		char **argv = command_split(v, why);
		if (!argv)
			return -1;
		argv_free(p->argv);
		p->argv = argv;
	} else if (!strcmp(k, "workdir")) {
		set_str(&p->workdir, *v ? v : NULL);     /* empty: inherit */
	} else if (!strcmp(k, "host")) {
		set_str(&p->host, v);
	} else if (!strcmp(k, "port")) {
		if (parse_uint(v, 1, 65535, &n) < 0) {
			*why = xasprintf("port must be 1..65535, not \"%s\"", v);
			return -1;
		}
		p->port = (uint16_t)n;
	} else if (!strcmp(k, "start_timeout") || !strcmp(k, "command_timeout") ||
		   !strcmp(k, "stop_timeout")) {
		unsigned ms;
		if (parse_seconds(v, &ms) < 0) {
			*why = xasprintf("%s must be seconds in (0, 86400], not \"%s\"", k, v);
			return -1;
		}
		if (k[2] == 'a')
			p->start_timeout_ms = ms;
		else if (k[0] == 'c')
			p->command_timeout_ms = ms;
		else
			p->stop_timeout_ms = ms;
	} else if (!strcmp(k, "option")) {
		return profile_option(p, v, why);
	} else if (!strcmp(k, "hash_mb") || !strcmp(k, "hash_mb_max")) {
		if (parse_uint(v, 1, 65536, &n) < 0) {
			*why = xasprintf("%s must be 1..65536, not \"%s\"", k, v);
			return -1;
		}
		if (!strcmp(k, "hash_mb"))
			p->hash_mb = (size_t)n;
		else
			p->hash_mb_max = (size_t)n;
	} else if (!strcmp(k, "threads")) {
		if (parse_uint(v, 1, 64, &n) < 0) {
			*why = xasprintf("threads must be 1..64, not \"%s\"", v);
			return -1;
		}
		p->threads = (unsigned)n;
	} else if (!strcmp(k, "expansions")) {
		static const char letters[] = "MLP";     /* HIVE_EXP_M, _L, _P */
		unsigned bits = 0;
		for (const char *q = v; strcmp(v, "none") && *q; q++) {
			const char *at = strchr(letters, *q);
			unsigned bit = at ? 1u << (at - letters) : 0;
			if (!bit || bits & bit) {
				*why = xasprintf("expansions must be letters of MLP or none, not \"%s\"", v);
				return -1;
			}
			bits |= bit;
		}
		p->expansions = bits;
	} else {
		*why = xasprintf("unknown key \"%s\" in [engine %s]", k, pname);
		return -1;
	}
	return 0;
}

static int listen_key(struct config *c, const char *lname, const char *k, const char *v, char **why)
{
	struct listener_conf *l;
	unsigned long long n;

	/* A file that names listeners gets exactly those: the defaults go. */
	if (c->listeners_default) {
		for (size_t i = 0; i < c->nlisteners; i++)
			listener_clear(&c->listeners[i]);
		c->nlisteners = 0;
		c->listeners_default = 0;
	}
	l = listener_find(c, lname);
	if (!l)
		l = listener_add(c, lname);
	if (!strcmp(k, "protocol")) {
		if (!protocol_known(v)) {
			char names[256];
			*why = xasprintf("unknown protocol \"%s\" (%s)", v,
					 protocol_names(names, sizeof names, 0));
			return -1;
		}
		set_str(&l->protocol, v);
	} else if (!strcmp(k, "address")) {
		if (parse_address(v) < 0) {
			*why = xasprintf("address must be a numeric IPv4 or IPv6 address, not \"%s\"", v);
			return -1;
		}
		set_str(&l->address, v);
	} else if (!strcmp(k, "port")) {
		/* 0 asks the system for a free port (tests). */
		if (parse_uint(v, 0, 65535, &n) < 0) {
			*why = xasprintf("port must be 0..65535, not \"%s\"", v);
			return -1;
		}
		l->port = (uint16_t)n;
	} else if (!strcmp(k, "engine")) {
		set_str(&l->engine, v);
	} else if (!strcmp(k, "think_time")) {
		unsigned ms;
		if (parse_seconds(v, &ms) < 0) {
			*why = xasprintf("think_time must be seconds in (0, 86400], not \"%s\"", v);
			return -1;
		}
		l->think_ms = ms;
	} else if (!strcmp(k, "depth")) {
		if (parse_uint(v, 0, 64, &n) < 0) {
			*why = xasprintf("depth must be 0..64, not \"%s\"", v);
			return -1;
		}
		l->depth = (int)n;
	} else if (!strcmp(k, "idle_timeout") || !strcmp(k, "game_idle_timeout")) {
		unsigned ms = 0;
		if (strcmp(v, "0") && parse_seconds(v, &ms) < 0) {
			*why = xasprintf("%s must be 0 (never) or seconds in (0, 86400], not \"%s\"", k, v);
			return -1;
		}
		if (k[0] == 'i')
			l->idle_timeout_ms = ms;
		else
			l->game_idle_timeout_ms = ms;
	} else if (!strcmp(k, "max_depth")) {
		if (parse_uint(v, 1, 64, &n) < 0) {
			*why = xasprintf("max_depth must be 1..64, not \"%s\"", v);
			return -1;
		}
		l->max_depth = (int)n;
	} else if (!strcmp(k, "max_think_time")) {
		unsigned ms;
		if (parse_seconds(v, &ms) < 0) {
			*why = xasprintf("max_think_time must be seconds in (0, 86400], not \"%s\"", v);
			return -1;
		}
		l->max_think_ms = ms;
	} else {
		char err[256];
		int taken = lobby_conf_key(&l->lobby, k, v, err, sizeof err);
		if (taken < 0) {
			*why = xstrdup(err);
			return -1;
		}
		if (!taken) {
			*why = xasprintf("unknown key \"%s\" in [listen %s]", k, lname);
			return -1;
		}
	}
	return 0;
}

static int daemon_key(struct config *c, const char *k, const char *v, char **why)
{
	unsigned long long n;

	if (!strcmp(k, "log")) {
		set_str(&c->log_path, *v ? v : NULL);    /* empty: no trace log */
	} else if (!strcmp(k, "http")) {
		set_str(&c->http, *v ? v : NULL);        /* empty: no web page */
	} else if (!strcmp(k, "http_token_file")) {
		set_str(&c->http_token_file, *v ? v : NULL);
	} else if (!strcmp(k, "http_hosts")) {
		set_str(&c->http_hosts, *v ? v : NULL);
	} else if (!strcmp(k, "max_sessions")) {
		if (parse_uint(v, 1, 1000000, &n) < 0) {
			*why = xasprintf("max_sessions must be 1..1000000, not \"%s\"", v);
			return -1;
		}
		c->max_sessions = (size_t)n;
	} else if (!strcmp(k, "max_sessions_per_peer")) {
		if (parse_uint(v, 1, 1000000, &n) < 0) {
			*why = xasprintf("max_sessions_per_peer must be 1..1000000, not \"%s\"", v);
			return -1;
		}
		c->max_sessions_per_peer = (size_t)n;
	} else if (!strcmp(k, "http_max_connections")) {
		if (parse_uint(v, 2, 100000, &n) < 0) {
			*why = xasprintf("http_max_connections must be 2..100000, not \"%s\"", v);
			return -1;
		}
		c->http_max_connections = (unsigned)n;
	} else if (!strcmp(k, "http_max_connections_per_address")) {
		if (parse_uint(v, 1, 100000, &n) < 0) {
			*why = xasprintf("http_max_connections_per_address must be 1..100000, not \"%s\"", v);
			return -1;
		}
		c->http_max_connections_per_address = (unsigned)n;
	} else if (!strcmp(k, "http_head_timeout")) {
		if (parse_uint(v, 1, 3600, &n) < 0) {
			*why = xasprintf("http_head_timeout must be 1..3600 seconds, not \"%s\"", v);
			return -1;
		}
		c->http_head_timeout_ms = (unsigned)n * 1000;
	} else if (!strcmp(k, "http_max_head")) {
		if (parse_uint(v, 4096, 1048576, &n) < 0) {
			*why = xasprintf("http_max_head must be 4096..1048576 bytes, not \"%s\"", v);
			return -1;
		}
		c->http_max_head = (size_t)n;
	} else if (!strcmp(k, "max_line")) {
		if (parse_uint(v, 256, 16777216, &n) < 0) {
			*why = xasprintf("max_line must be 256..16777216, not \"%s\"", v);
			return -1;
		}
		c->max_line = (size_t)n;
	} else if (!strcmp(k, "max_buffer")) {
		if (parse_uint(v, 4096, 1073741824, &n) < 0) {
			*why = xasprintf("max_buffer must be 4096..1073741824, not \"%s\"", v);
			return -1;
		}
		c->max_buffer = (size_t)n;
	} else if (!strcmp(k, "hash_budget_mb")) {
		if (parse_uint(v, 1, 1048576, &n) < 0) {
			*why = xasprintf("hash_budget_mb must be 1..1048576, not \"%s\"", v);
			return -1;
		}
		c->hash_budget_mb = (size_t)n;
	} else if (!strcmp(k, "hash_idle_timeout")) {
		if (parse_uint(v, 0, 86400, &n) < 0) {
			*why = xasprintf("hash_idle_timeout must be 0..86400 seconds (0: never), not \"%s\"", v);
			return -1;
		}
		c->hash_idle_timeout = (unsigned)n;
	} else if (!strcmp(k, "search_threads")) {
		if (parse_uint(v, 0, 256, &n) < 0) {
			*why = xasprintf("search_threads must be 0..256 (0: one per CPU), not \"%s\"", v);
			return -1;
		}
		c->search_threads = (unsigned)n;
	} else if (!strcmp(k, "busy_poll_us")) {
		if (parse_uint(v, 0, 10000, &n) < 0) {
			*why = xasprintf("busy_poll_us must be 0..10000 microseconds (0: never), not \"%s\"", v);
			return -1;
		}
		c->busy_poll_us = (unsigned)n;
	} else if (!strcmp(k, "http_play_move_time")) {
		if (parse_uint(v, 1, 86400, &n) < 0) {
			*why = xasprintf("http_play_move_time must be 1..86400 seconds, not \"%s\"", v);
			return -1;
		}
		c->http_play_move_ms = (unsigned)n * 1000;
	} else if (!strcmp(k, "http_play_max_plies")) {
		if (parse_uint(v, 0, 60000, &n) < 0) {
			*why = xasprintf("http_play_max_plies must be 0..60000 (0: never), not \"%s\"", v);
			return -1;
		}
		c->http_play_max_plies = (unsigned)n;
	} else {
		*why = xasprintf("unknown key \"%s\" in [daemon]", k);
		return -1;
	}
	return 0;
}

/* "engine NAME" → NAME, if section starts with the word kw; else NULL. */
static const char *section_name(const char *section, const char *kw)
{
	size_t n = strlen(kw);
	if (strncmp(section, kw, n) || (section[n] != ' ' && section[n] != '\t'))
		return NULL;
	section += n;
	section += strspn(section, " \t");
	if (!*section || strpbrk(section, " \t"))
		return NULL;
	return section;
}

static int config_handler(void *user, const char *section, const char *k, const char *v)
{
	struct config_parse *cp = user;
	char *why = NULL;
	const char *name;
	int rc;

	if (cp->cause)
		return 0;     /* report only the first error */
	if (!*v && strcmp(k, "log") && strcmp(k, "workdir")) {
		why = xasprintf("empty value for \"%s\"", k);
		rc = -1;
	} else if (!strcmp(section, "daemon")) {
		rc = daemon_key(cp->c, k, v, &why);
	} else if ((name = section_name(section, "engine")) != NULL) {
		rc = engine_key(cp->c, name, k, v, &why);
	} else if ((name = section_name(section, "listen")) != NULL) {
		rc = listen_key(cp->c, name, k, v, &why);
	} else if (!strcmp(section, "queue")) {
		/* Read by match --queue and worker (bridge/match/queue.c). */
		rc = 0;
		if (strcmp(k, "password") && strcmp(k, "user")) {
			why = xasprintf("unknown key \"%s\" in [queue] (password, user)", k);
			rc = -1;
		}
	} else if (!*section) {
		why = xasprintf("key \"%s\" outside any section", k);
		rc = -1;
	} else {
		why = xasprintf("unknown section [%s] ([engine NAME], [listen NAME], [daemon], [queue])", section);
		rc = -1;
	}
	if (rc < 0) {
		cp->cause = xasprintf("line %d: %s", cp->lineno, why);
		cp->cause_line = cp->lineno;
		free(why);
		return 0;
	}
	return 1;
}

static int config_line_error(struct config_parse *cp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int config_line_error(struct config_parse *cp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = xvasprintf(fmt, ap);
	va_end(ap);
	cp->cause = xasprintf("line %d: %s", cp->lineno, why);
	cp->cause_line = cp->lineno;
	free(why);
	return -1;
}

/* What inih would read differently from what the line says is an error here, so
 * that the file means what it shows: a NUL (inih stops the line there), an
 * indented line (after a name = value line inih takes it as the next value of that
 * name: "address = 127.0.0.1" then "  0.0.0.0" listened on 0.0.0.0), " ;" (an
 * inline comment: inih drops the rest of the line), and a line longer than inih's
 * buffer. Full-line comments (";" or "#", indented or not) and blank lines are
 * fine. */
static int config_line_check(struct config_parse *cp, const char *line, size_t *lenp, int num)
{
	size_t len = *lenp;
	if (memchr(line, '\0', len))
		return config_line_error(cp, "a NUL byte (a configuration file is text)");
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	*lenp = len;
	/* Comments too: other readers of the file (the [queue] password) use inih's
	 * own reader, which cuts a long line into two. */
	if (len > (size_t)num - 2)
		return config_line_error(cp, "%zu bytes long, over the limit of %d bytes a line",
					 len, num - 2);
	/* inih takes any isspace() byte as a blank: a line that starts with \f, \v
	 * or \r continues the value above, and "\f;" starts a comment. Such bytes
	 * (and every other control byte but the tab) are refused outright. */
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			return config_line_error(cp, "a control byte (0x%02x): a configuration "
						 "file is text", (unsigned char)line[i]);
	size_t lead = 0;
	while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
		lead++;
	if (lead == len || line[lead] == ';' || line[lead] == '#')
		return 0;
	if (lead)
		return config_line_error(cp, "an indented line (INI would take it as the "
					 "continuation of a value above): write it without "
					 "indentation");
	for (size_t i = lead + 1; i < len; i++)
		if (line[i] == ';' && (line[i - 1] == ' ' || line[i - 1] == '\t'))
			return config_line_error(cp, "\" ;\" starts a comment within a line, which "
						 "INI drops: put comments on lines of their own");
	return 0;
}

/* Hands inih one whole line at a time, checked first (config_line_check). */
static char *config_reader(char *str, int num, void *stream)
{
	struct config_parse *cp = stream;
	if (cp->cause)
		return NULL;
	ssize_t n = getline(&cp->line, &cp->line_cap, cp->f);
	if (n < 0)
		return NULL;
	cp->lineno++;
	size_t len = (size_t)n;
	if (config_line_check(cp, cp->line, &len, num) < 0)
		return NULL;
	/* It fits (checked), without its line end. */
	memcpy(str, cp->line, len);
	str[len] = '\n';
	str[len + 1] = 0;
	return str;
}

/* Checks the cross references once the whole file is read. */
static int config_check(const struct config *c, char **why)
{
	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct engine_profile *p = &c->profiles[i];
		const struct protocol *pr = protocol_by_kind(p->kind);
		if (pr && pr->target == PROTOCOL_COMMAND && !p->argv) {
			*why = xasprintf("[engine %s]: kind %s needs a command", p->name, p->kind);
			return -1;
		}
		if (pr && pr->target == PROTOCOL_ADDRESS && (!p->host || !p->port)) {
			*why = xasprintf("[engine %s]: kind %s needs host and port", p->name, p->kind);
			return -1;
		}
	}
	for (size_t i = 0; i < c->nlisteners; i++) {
		const struct listener_conf *l = &c->listeners[i];
		if (!config_profile(c, l->engine)) {
			*why = xasprintf("[listen %s]: no [engine %s]", l->name, l->engine);
			return -1;
		}
		if (l->lobby.house_engine && !config_profile(c, l->lobby.house_engine)) {
			*why = xasprintf("[listen %s]: house_engine: no [engine %s]", l->name,
					 l->lobby.house_engine);
			return -1;
		}
		for (size_t j = 0; j < i; j++) {
			const struct listener_conf *o = &c->listeners[j];
			if (l->port && o->port == l->port && !strcmp(o->address, l->address)) {
				*why = xasprintf("[listen %s] and [listen %s] both use %s port %u",
					       o->name, l->name, l->address, l->port);
				return -1;
			}
		}
	}
	return 0;
}

int config_load(struct config *c, const char *path, char **cause)
{
	struct config_parse cp = { .c = c, .lineno = 0 };
	char *why = NULL;

	struct stat st;
	cp.f = fopen(path, "r");
	if (!cp.f) {
		*cause = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	/* fopen takes a directory, and reading it then looks like an empty file. */
	if (fstat(fileno(cp.f), &st) < 0 || S_ISDIR(st.st_mode)) {
		*cause = xasprintf("%s: cannot open: %s", path, strerror(EISDIR));
		fclose(cp.f);
		return -1;
	}
	int rc = ini_parse_stream(config_reader, &cp, config_handler, &cp);
	if (!cp.cause && ferror(cp.f))
		cp.cause = xasprintf("cannot read: %s", strerror(errno));
	fclose(cp.f);
	free(cp.line);
	if (rc > 0 && (!cp.cause || rc < cp.cause_line)) {
		/* inih goes on after a malformed line: that line is the first error */
		free(cp.cause);
		cp.cause = xasprintf("line %d: syntax error", rc);
	}
	if (!cp.cause && rc < 0)
		cp.cause = xasprintf("cannot parse (error %d)", rc);
	if (cp.cause) {
		*cause = xasprintf("%s: %s", path, cp.cause);
		free(cp.cause);
		return -1;
	}
	if (config_check(c, &why) < 0) {
		*cause = xasprintf("%s: %s", path, why);
		free(why);
		return -1;
	}
	return 0;
}

/* An ENGINE argument's profile. Its name has a blank, which section_name refuses in
 * [engine NAME]: a profile of the config file can never take it (nor the other way
 * round, whichever is read first), and it is unique among the ad-hoc ones. */
static struct engine_profile *profile_add_adhoc(struct config *c, const char *kind)
{
	char name[48];
	size_t n = c->nprofiles;

	do
		snprintf(name, sizeof name, "command %zu", n++);
	while (config_profile(c, name));
	struct engine_profile *p = profile_add(c, name, kind);
	p->adhoc = 1;
	return p;
}

const struct engine_profile *config_add_command(struct config *c, const char *kind,
						const char *command, char **cause)
{
	const struct protocol *pr = NULL;
	if (!kind && command) {
		/* "builtin", a protocol's "PREFIX..." (uhp:CMD, trylobot:HOST:PORT, ...), or a
		 * bare command of the default protocol. */
		const char *rest;
		if (!strcmp(command, "builtin")) {
			kind = "builtin";
		} else if ((pr = protocol_for_engine(command, &rest)) != NULL) {
			kind = pr->kind;
			command = rest;
		}
	}
	if (!kind)
		kind = protocol_default()->kind;
	if (!kind_known(kind)) {
		*cause = xasprintf("unknown engine kind \"%s\"", kind);
		return NULL;
	}
	pr = protocol_by_kind(kind);
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* A server's address, HOST:PORT. */
		const char *colon = command ? strrchr(command, ':') : NULL;
		unsigned long long port;
		if (!colon || colon == command || parse_uint(colon + 1, 1, 65535, &port) < 0) {
			*cause = xasprintf("a %s engine is HOST:PORT, not \"%s\"", kind, command ? command : "");
			return NULL;
		}
		struct engine_profile *p = profile_add_adhoc(c, kind);
		free(p->host);
		p->host = strndup(command, (size_t)(colon - command));
		p->port = (uint16_t)port;
		return p;
	}
	char **argv = NULL;
	if (strcmp(kind, "builtin") != 0) {
		if (!command) {
			*cause = xasprintf("engine kind %s needs a command", kind);
			return NULL;
		}
		argv = command_split(command, cause);
		if (!argv)
			return NULL;
	}
	struct engine_profile *p = profile_add_adhoc(c, kind);
	p->argv = argv;
	return p;
}

const struct engine_profile *config_engine_parse(struct config *c, const char *spec, int *depth,
						 char **cause)
{
	const struct engine_profile *p;
	unsigned long long v;

	*depth = 0;
	if (!spec || !*spec) {
		*cause = xasprintf("empty engine");
		return NULL;
	}
	/* A NAME is a profile of the config: never one made from an earlier argument. */
	if ((p = config_profile(c, spec)) != NULL && !p->adhoc)
		return p;
	if (!strncmp(spec, "builtin:", 8)) {
		if (strncmp(spec + 8, "depth=", 6) || parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) < 0) {
			*cause = xasprintf("want builtin or builtin:depth=N (N 1..%d)", CONFIG_MAX_DEPTH);
			return NULL;
		}
		*depth = (int)v;
		p = config_profile(c, "builtin");
		if (p && !strcmp(p->kind, "builtin"))
			return p;
		return config_add_command(c, "builtin", NULL, cause);
	}
	return config_add_command(c, NULL, spec, cause);
}

int config_engine_configured(const struct config *c, const char *spec, char **cause)
{
	unsigned long long v;

	const struct engine_profile *p = spec && *spec ? config_profile(c, spec) : NULL;
	/* The same rule as config_engine_parse: an ad-hoc profile is no name to take. */
	if (p && !p->adhoc)
		return 0;
	if (spec && !strncmp(spec, "builtin:depth=", 14) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0)
		return 0;
	if (spec && *spec && strncmp(spec, "builtin:", 8)) {
		const char *s = spec;
		while (*s && *s != '/' && *s != ':' && (unsigned char)*s > ' ' && *s != 0x7f)
			s++;
		if (!*s) {
			*cause = xasprintf("no [engine %s] profile in this worker's --config", spec);
			return 1;
		}
	}
	*cause = xasprintf("not a profile of this worker nor builtin[:depth=N]: commands from jobs are "
			   "refused (the worker's --allow-engine-commands would run them)");
	return -1;
}

/* Whether the child, once in workdir, can exec cmd the way execvp would. */
static int command_runnable(const char *cmd, const char *workdir, char **why)
{
	struct stat st;
	char *path = NULL;

	if (strchr(cmd, '/')) {
		path = cmd[0] == '/' || !workdir ? xstrdup(cmd) : xasprintf("%s/%s", workdir, cmd);
	} else {
		const char *dirs = getenv("PATH");
		if (!dirs || !*dirs)
			dirs = "/usr/local/bin:/usr/bin:/bin";
		while (*dirs) {
			size_t n = strcspn(dirs, ":");
			/* An empty entry is the current directory, the child's workdir. */
			const char *base = n ? NULL : (workdir ? workdir : ".");
			char *cand = base ? xasprintf("%s/%s", base, cmd) :
				dirs[0] == '/' || !workdir ? xasprintf("%.*s/%s", (int)n, dirs, cmd) :
				xasprintf("%s/%.*s/%s", workdir, (int)n, dirs, cmd);
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				free(cand);
				return 0;
			}
			free(cand);
			dirs += n + (dirs[n] == ':');
		}
		*why = xasprintf("%s: not found on PATH", cmd);
		return -1;
	}
	if (stat(path, &st) < 0)
		*why = xasprintf("%s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		*why = xasprintf("%s: not a regular file", path);
	else if (access(path, X_OK) < 0)
		*why = xasprintf("%s: not executable: %s", path, strerror(errno));
	else {
		free(path);
		return 0;
	}
	free(path);
	return -1;
}

int config_engine_check(struct config *c, const struct engine_profile *cp, char **cause)
{
	struct engine_profile *p = &c->profiles[cp - c->profiles];
	const struct protocol *pr = protocol_by_kind(p->kind);
	struct stat st;
	int checked = pr && pr->back_check ? pr->back_check(p, cause) : 0;

	if (checked != 0)
		return checked < 0 ? -1 : 0;
	if (pr && pr->target == PROTOCOL_COMMAND) {
		if (p->workdir && stat(p->workdir, &st) < 0) {
			*cause = xasprintf("workdir %s: %s", p->workdir, strerror(errno));
			return -1;
		}
		if (p->workdir && !S_ISDIR(st.st_mode)) {
			*cause = xasprintf("workdir %s: %s", p->workdir, strerror(ENOTDIR));
			return -1;
		}
		if (!p->argv || !p->argv[0]) {
			*cause = xasprintf("no command");
			return -1;
		}
		return command_runnable(p->argv[0], p->workdir, cause);
	}
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* Resolved once, here: a name never blocks the event loop later. */
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG };
		struct addrinfo *res = NULL;
		char host[INET6_ADDRSTRLEN];
		int rc = p->host ? getaddrinfo(p->host, NULL, &hints, &res) : EAI_NONAME;
		if (rc != 0 || !res) {
			*cause = xasprintf("host %s: cannot resolve: %s", p->host ? p->host : "(none)",
					   rc ? gai_strerror(rc) : "no address");
			if (res)
				freeaddrinfo(res);
			return -1;
		}
		const void *a = res->ai_family == AF_INET6 ?
			(const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr :
			(const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr;
		if (inet_ntop(res->ai_family, a, host, sizeof host))
			set_str(&p->host, host);
		freeaddrinfo(res);
	}
	return 0;
}
