/*
 * config.c: the daemon's configuration: embedded defaults, then an INI file read
 * with inih over them, each key through its row of config_keys.c's table; and the
 * ENGINE syntax every command shares. Every error names the file's line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ini.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/config.h"
#include "bridge/config_int.h"
#include "bridge/protocol.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"

/* State of one config_load(). */
struct config_parse {
	struct config *c;
	FILE          *f;
	int            lineno;        /* line inih is handling */
	char          *line;          /* the line read (getline's buffer) */
	size_t         line_cap;
	char           cause[512];    /* first error, already prefixed with the line; "" if none */
	int            cause_line;    /* its line */
};


static void profile_init(struct engine_profile *p, const char *name, const char *kind)
{
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->kind = xstrdup(kind);
	config_section_defaults(CONFIG_ENGINE, p);
}

static void profile_clear(struct engine_profile *p)
{
	free(p->name);
	free(p->kind);
	lines_free(p->argv);
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

/* A listener of protocol pr (the default protocol if NULL), on its default port. */
static struct listener_conf *listener_add(struct config *c, const char *name,
					  const struct protocol *pr)
{
	if (!pr)
		pr = protocol_default();
	c->listeners = xreallocarray(c->listeners, c->nlisteners + 1, sizeof *c->listeners);
	struct listener_conf *l = &c->listeners[c->nlisteners++];
	memset(l, 0, sizeof *l);
	l->name = xstrdup(name);
	l->protocol = xstrdup(pr->name);
	l->port = pr->default_port;
	config_section_defaults(CONFIG_LISTEN, l);
	return l;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof *c);
	config_section_defaults(CONFIG_DAEMON, c);
	profile_add(c, "builtin", "builtin");
	/* One listener per protocol, so that a client of any of them can connect. */
	const struct protocol *pr;
	for (size_t i = 0; (pr = protocol_at(i)) != NULL; i++)
		if (pr->front.session_new && pr->default_port)
			listener_add(c, pr->name, pr);
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
	for (size_t i = 0; i < c->nsites; i++)
		bot_conf_free(&c->sites[i]);
	free(c->sites);
	free(c->log_path);
	free(c->http);
	free(c->http_token_file);
	free(c->http_hosts);
	free(c->games_path);
	memset(c, 0, sizeof *c);
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

/* One name = value of the file: the section's struct, then the key's row. */
static int config_file_key(struct config *c, const char *section, const char *k, const char *v,
			   char *err, size_t errlen)
{
	const struct config_key *key;
	const char *name;

	if (!*v && !config_key_empty_ok(k))
		return errbuf_set(err, errlen, "empty value for \"%s\"", k);
	if (!strcmp(section, "daemon")) {
		if (!(key = config_key_find(CONFIG_DAEMON, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [daemon]", k);
		return config_key_set(key, c, v, err, errlen);
	}
	if ((name = section_name(section, "engine")) != NULL) {
		struct engine_profile *p = (struct engine_profile *)config_profile(c, name);
		if (!p)
			p = profile_add(c, name, protocol_default()->name);
		if (!(key = config_key_find(CONFIG_ENGINE, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [engine %s]", k, name);
		return config_key_set(key, p, v, err, errlen);
	}
	if ((name = section_name(section, "listen")) != NULL) {
		/* A file that names listeners gets exactly those: the defaults go. */
		if (c->listeners_default) {
			for (size_t i = 0; i < c->nlisteners; i++)
				listener_clear(&c->listeners[i]);
			c->nlisteners = 0;
			c->listeners_default = 0;
		}
		struct listener_conf *l = listener_find(c, name);
		if (!l)
			l = listener_add(c, name, NULL);
		if (!(key = config_key_find(CONFIG_LISTEN, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [listen %s]", k, name);
		return config_key_set(key, l, v, err, errlen);
	}
	if ((name = section_name(section, "site")) != NULL) {
		struct bot_conf *b = NULL;
		for (size_t i = 0; i < c->nsites && !b; i++)
			if (!strcmp(c->sites[i].name, name))
				b = &c->sites[i];
		if (!b) {
			c->sites = xreallocarray(c->sites, c->nsites + 1, sizeof *c->sites);
			b = &c->sites[c->nsites++];
			bot_conf_defaults(b, name);
		}
		if (!(key = config_key_find(CONFIG_SITE, k)))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [site %s]", k, name);
		return config_key_set(key, b, v, err, errlen);
	}
	if (!strcmp(section, "queue")) {
		if (!config_key_find(CONFIG_QUEUE, k))
			return errbuf_set(err, errlen, "unknown key \"%s\" in [queue] (password, user)", k);
		return 0;
	}
	if (!*section)
		return errbuf_set(err, errlen, "key \"%s\" outside any section", k);
	return errbuf_set(err, errlen, "unknown section [%s] ([engine NAME], [listen NAME], [site NAME], [daemon], "
			  "[queue])",
			  section);
}

static int config_handler(void *user, const char *section, const char *k, const char *v)
{
	struct config_parse *cp = user;
	char why[400];

	if (cp->cause[0])
		return 0;     /* report only the first error */
	if (config_file_key(cp->c, section, k, v, why, sizeof why) < 0) {
		snprintf(cp->cause, sizeof cp->cause, "line %d: %s", cp->lineno, why);
		cp->cause_line = cp->lineno;
		return 0;
	}
	return 1;
}

static int config_line_error(struct config_parse *cp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int config_line_error(struct config_parse *cp, const char *fmt, ...)
{
	char why[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(cp->cause, sizeof cp->cause, "line %d: %s", cp->lineno, why);
	cp->cause_line = cp->lineno;
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
	if (cp->cause[0])
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
static int config_check(const struct config *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nprofiles; i++) {
		const struct engine_profile *p = &c->profiles[i];
		const struct protocol *pr = protocol_by_kind(p->kind);
		if (pr && pr->target == PROTOCOL_COMMAND && !p->argv)
			return errbuf_set(err, errlen, "[engine %s]: kind %s needs a command", p->name, p->kind);
		if (pr && pr->target == PROTOCOL_ADDRESS && (!p->host || !p->port))
			return errbuf_set(err, errlen, "[engine %s]: kind %s needs host and port", p->name,
					  p->kind);
	}
	for (size_t i = 0; i < c->nlisteners; i++) {
		const struct listener_conf *l = &c->listeners[i];
		if (!config_profile(c, l->engine))
			return errbuf_set(err, errlen, "[listen %s]: no [engine %s]", l->name, l->engine);
		if (l->lobby.house_engine && !config_profile(c, l->lobby.house_engine))
			return errbuf_set(err, errlen, "[listen %s]: house_engine: no [engine %s]", l->name,
					  l->lobby.house_engine);
		for (size_t j = 0; j < i; j++) {
			const struct listener_conf *o = &c->listeners[j];
			if (l->port && o->port == l->port && !strcmp(o->address, l->address))
				return errbuf_set(err, errlen, "[listen %s] and [listen %s] both use %s port %u",
						  o->name, l->name, l->address, l->port);
		}
	}
	return 0;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	struct config_parse cp = { .c = c, .lineno = 0 };
	char why[400];
	struct stat st;

	cp.f = fopen(path, "r");
	if (!cp.f)
		return errbuf_set(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	/* fopen takes a directory, and reading it then looks like an empty file. */
	if (fstat(fileno(cp.f), &st) < 0 || S_ISDIR(st.st_mode)) {
		fclose(cp.f);
		return errbuf_set(err, errlen, "%s: cannot open: %s", path, strerror(EISDIR));
	}
	int rc = ini_parse_stream(config_reader, &cp, config_handler, &cp);
	if (!cp.cause[0] && ferror(cp.f))
		snprintf(cp.cause, sizeof cp.cause, "cannot read: %s", strerror(errno));
	fclose(cp.f);
	free(cp.line);
	/* inih goes on after a malformed line: that line is the first error */
	if (rc > 0 && (!cp.cause[0] || rc < cp.cause_line))
		snprintf(cp.cause, sizeof cp.cause, "line %d: syntax error", rc);
	if (!cp.cause[0] && rc < 0)
		snprintf(cp.cause, sizeof cp.cause, "cannot parse (error %d)", rc);
	if (cp.cause[0])
		return errbuf_set(err, errlen, "%s: %s", path, cp.cause);
	if (config_check(c, why, sizeof why) < 0)
		return errbuf_set(err, errlen, "%s: %s", path, why);
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
						const char *command, char *err, size_t errlen)
{
	const struct protocol *pr = NULL;
	if (!kind && command) {
		/* "builtin", a protocol's "PREFIX..." (uhp:CMD, trylobot:HOST:PORT, ...), or a
		 * bare command of the default protocol. */
		const char *rest;
		if (!strcmp(command, "builtin")) {
			kind = "builtin";
		} else if ((pr = protocol_for_engine(command, &rest)) != NULL) {
			kind = pr->name;
			command = rest;
		}
	}
	if (!kind)
		kind = protocol_default()->name;
	if (!config_kind_known(kind)) {
		errbuf_set(err, errlen, "unknown engine kind \"%s\"", kind);
		return NULL;
	}
	pr = protocol_by_kind(kind);
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* A server's address, HOST:PORT. */
		const char *colon = command ? strrchr(command, ':') : NULL;
		unsigned long long port;
		if (!colon || colon == command || parse_uint(colon + 1, 1, 65535, &port) < 0) {
			errbuf_set(err, errlen, "a %s engine is HOST:PORT, not \"%s\"", kind, command ? command : "");
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
			errbuf_set(err, errlen, "engine kind %s needs a command", kind);
			return NULL;
		}
		argv = config_command_split(command, err, errlen);
		if (!argv)
			return NULL;
	}
	struct engine_profile *p = profile_add_adhoc(c, kind);
	p->argv = argv;
	return p;
}

const struct engine_profile *config_engine_parse(struct config *c, const char *spec, int *depth,
						 char *err, size_t errlen)
{
	const struct engine_profile *p;
	unsigned long long v;

	*depth = 0;
	if (!spec || !*spec) {
		errbuf_set(err, errlen, "empty engine");
		return NULL;
	}
	/* A NAME is a profile of the config: never one made from an earlier argument. */
	if ((p = config_profile(c, spec)) != NULL && !p->adhoc)
		return p;
	if (!strncmp(spec, "builtin:", 8)) {
		if (!strncmp(spec + 8, "depth=", 6) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0) {
			*depth = (int)v;
		} else if (!config_engine_movetime(spec)) {
			errbuf_set(err, errlen, "want builtin, builtin:depth=N (N 1..%d) or builtin:movetime=MS "
				   "(MS 1..%d)", CONFIG_MAX_DEPTH, CONFIG_MAX_MOVETIME_MS);
			return NULL;
		}
		p = config_profile(c, "builtin");
		if (p && !strcmp(p->kind, "builtin"))
			return p;
		return config_add_command(c, "builtin", NULL, err, errlen);
	}
	return config_add_command(c, NULL, spec, err, errlen);
}

unsigned config_engine_movetime(const char *spec)
{
	unsigned long long v;

	if (spec && !strncmp(spec, "builtin:movetime=", 17) &&
	    parse_uint(spec + 17, 1, CONFIG_MAX_MOVETIME_MS, &v) == 0)
		return (unsigned)v;
	return 0;
}

int config_engine_configured(const struct config *c, const char *spec, char *err, size_t errlen)
{
	unsigned long long v;

	const struct engine_profile *p = spec && *spec ? config_profile(c, spec) : NULL;
	/* The same rule as config_engine_parse: an ad-hoc profile is no name to take. */
	if (p && !p->adhoc)
		return 0;
	if (spec && ((!strncmp(spec, "builtin:depth=", 14) && parse_uint(spec + 14, 1, CONFIG_MAX_DEPTH, &v) == 0) ||
		     config_engine_movetime(spec)))
		return 0;
	if (spec && *spec && strncmp(spec, "builtin:", 8)) {
		const char *s = spec;
		while (*s && *s != '/' && *s != ':' && (unsigned char)*s > ' ' && *s != 0x7f)
			s++;
		if (!*s) {
			errbuf_set(err, errlen, "no [engine %s] profile in this worker's --config", spec);
			return 1;
		}
	}
	errbuf_set(err, errlen, "not a profile of this worker nor builtin[:depth=N|:movetime=MS]: commands from jobs are "
			   "refused (the worker's --allow-engine-commands would run them)");
	return -1;
}

/* Whether the child, once in workdir, can exec cmd the way execvp would. */
static int command_runnable(const char *cmd, const char *workdir, char *err, size_t errlen)
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
		errbuf_set(err, errlen, "%s: not found on PATH", cmd);
		return -1;
	}
	if (stat(path, &st) < 0)
		errbuf_set(err, errlen, "%s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		errbuf_set(err, errlen, "%s: not a regular file", path);
	else if (access(path, X_OK) < 0)
		errbuf_set(err, errlen, "%s: not executable: %s", path, strerror(errno));
	else {
		free(path);
		return 0;
	}
	free(path);
	return -1;
}

int config_engine_check(struct config *c, const struct engine_profile *cp, char *err, size_t errlen)
{
	struct engine_profile *p = &c->profiles[cp - c->profiles];
	const struct protocol *pr = protocol_by_kind(p->kind);
	struct stat st;
	char why[512];
	int checked = pr && pr->back_check ? pr->back_check(p, why, sizeof why) : 0;

	if (checked < 0)
		errbuf_set(err, errlen, "%s", why);
	if (checked != 0)
		return checked < 0 ? -1 : 0;
	if (pr && pr->target == PROTOCOL_COMMAND) {
		if (p->workdir && stat(p->workdir, &st) < 0) {
			errbuf_set(err, errlen, "workdir %s: %s", p->workdir, strerror(errno));
			return -1;
		}
		if (p->workdir && !S_ISDIR(st.st_mode)) {
			errbuf_set(err, errlen, "workdir %s: %s", p->workdir, strerror(ENOTDIR));
			return -1;
		}
		if (!p->argv || !p->argv[0]) {
			errbuf_set(err, errlen, "no command");
			return -1;
		}
		return command_runnable(p->argv[0], p->workdir, err, errlen);
	}
	if (pr && pr->target == PROTOCOL_ADDRESS) {
		/* Resolved once, here: a name never blocks the event loop later. */
		char host[UTIL_HOST_MAX], unresolved[256];
		if (util_resolve(p->host, AI_ADDRCONFIG, host, sizeof host, unresolved, sizeof unresolved) < 0)
			return errbuf_set(err, errlen, "host %s", unresolved);
		config_str_set(&p->host, host);
	}
	return 0;
}
