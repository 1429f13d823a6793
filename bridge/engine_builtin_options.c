/*
 * engine_builtin_options.c: the built-in engine's options (HashMB, Threads,
 * ReportIntermediateBestMoves): listed, read and set by a client's options command
 * and by its profile. HashMB is clamped like Mzinga does, and to the process's hash
 * budget; a new size is mapped by the next search. Threads is capped at the search
 * pool's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bridge/engine_builtin_int.h"
#include "bridge/engine_options.h"
#include "bridge/util.h"

/* The option table: each entry formats its line from the engine's state. */
static void option_hash(const struct builtin *b, struct engine_option *o)
{
	memset(o, 0, sizeof *o);
	snprintf(o->name, sizeof o->name, "HashMB");
	o->type = ENGINE_OPT_INT;
	snprintf(o->value, sizeof o->value, "%zu", b->mem ? b->table_mb : b->hash_mb);
	snprintf(o->def, sizeof o->def, "%zu", b->hash_mb_default);
	snprintf(o->min, sizeof o->min, "%d", HASH_MB_MIN);
	snprintf(o->max, sizeof o->max, "%zu", b->hash_mb_max);
}

static void option_report(const struct builtin *b, struct engine_option *o)
{
	memset(o, 0, sizeof *o);
	snprintf(o->name, sizeof o->name, "ReportIntermediateBestMoves");
	o->type = ENGINE_OPT_BOOL;
	snprintf(o->value, sizeof o->value, "%s", b->report ? "True" : "False");
	snprintf(o->def, sizeof o->def, "False");
}

/* An integer option's value as a client or a profile option writes it; -1 with msg
 * when it is not one. */
static int option_int(const char *name, const char *value, long long *v, char *msg, size_t msglen)
{
	char *end;
	errno = 0;
	*v = strtoll(value, &end, 10);
	if (end == value || *end || errno) {
		snprintf(msg, msglen, "The value \"%s\" is not valid for option \"%s\".", value, name);
		return -1;
	}
	return 0;
}

/* HashMB, clamped like Mzinga does (and to the process's budget). */
void hash_put(struct builtin *b, long long v)
{
	if (v < HASH_MB_MIN)
		v = HASH_MB_MIN;
	if (v > (long long)b->hash_mb_max)
		v = (long long)b->hash_mb_max;
	size_t total = hash_budget_figures().total_mb;
	if (v > (long long)total)
		v = (long long)total;
	if ((size_t)v == b->hash_mb)
		return;
	/* Mapped again, at the new size, by the next search. */
	table_drop(b);
	b->hash_mb = (size_t)v;
}

/* An integer option's setter: the value as written, put (clamped) by put. */
static int set_int(struct builtin *b, const char *name, void (*put)(struct builtin *b, long long v),
		   const char *value, char *msg, size_t msglen)
{
	long long v;

	if (option_int(name, value, &v, msg, msglen) < 0)
		return -1;
	put(b, v);
	return 0;
}

/* The option table's setters: the value as written, -1 with msg when it is none. */
static int set_hash(struct builtin *b, const char *value, char *msg, size_t msglen)
{
	return set_int(b, "HashMB", hash_put, value, msg, msglen);
}

static void option_threads(const struct builtin *b, struct engine_option *o)
{
	unsigned pool = search_pool_threads();
	memset(o, 0, sizeof *o);
	snprintf(o->name, sizeof o->name, "Threads");
	o->type = ENGINE_OPT_INT;
	snprintf(o->value, sizeof o->value, "%d", b->threads);
	snprintf(o->def, sizeof o->def, "%d", b->threads_default);
	snprintf(o->min, sizeof o->min, "1");
	snprintf(o->max, sizeof o->max, "%u", pool < THREADS_MAX ? pool : THREADS_MAX);
}

/* Threads, clamped to 1..the pool size (like HashMB). */
void threads_put(struct builtin *b, long long v)
{
	unsigned pool = search_pool_threads();
	long long max = pool < THREADS_MAX ? pool : THREADS_MAX;

	b->threads = (int)(v < 1 ? 1 : v > max ? max : v);
}

static int set_threads(struct builtin *b, const char *value, char *msg, size_t msglen)
{
	return set_int(b, "Threads", threads_put, value, msg, msglen);
}

static int set_report(struct builtin *b, const char *value, char *msg, size_t msglen)
{
	if (strcasecmp(value, "true") == 0)
		b->report = 1;
	else if (strcasecmp(value, "false") == 0)
		b->report = 0;
	else {
		snprintf(msg, msglen, "The value \"%s\" is not valid for option "
			 "\"ReportIntermediateBestMoves\".", value);
		return -1;
	}
	return 0;
}

static const struct builtin_option builtin_options[] = {
	{ "HashMB", option_hash, set_hash },
	{ "ReportIntermediateBestMoves", option_report, set_report },
	{ "Threads", option_threads, set_threads },
};

#define NOPTIONS (sizeof builtin_options / sizeof builtin_options[0])

const struct builtin_option *option_find(const char *name)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (strcasecmp(builtin_options[i].name, name) == 0)
			return &builtin_options[i];
	return NULL;
}

/* Appends the formatted line of opt to lines (which has room). */
static int lines_add(char **lines, size_t *n, const struct builtin *b, const struct builtin_option *opt)
{
	struct engine_option o;
	char buf[512];
	opt->get(b, &o);
	engine_option_format(&o, buf, sizeof buf);
	if (!(lines[*n] = strdup(buf)))
		return -1;
	(*n)++;
	return 0;
}

/* An options job, answered at once (the interface delivers it). */
int builtin_options_cmd(struct engine *e)
{
	struct builtin *b = (struct builtin *)e;
	const struct engine_job *j = &e->job;
	const struct builtin_option *opt;
	char msg[256] = "";
	char **lines = calloc(NOPTIONS + 1, sizeof *lines);
	size_t n = 0;

	if (!lines)
		return -1;
	if (j->argc == 0) {
		for (size_t i = 0; i < NOPTIONS; i++)
			if (lines_add(lines, &n, b, &builtin_options[i]) < 0)
				goto nomem;
		engine_job_finish(e, ENGINE_OK, NULL, lines);
		return 0;
	}
	if (!(opt = option_find(j->name))) {
		lines_free(lines);
		engine_job_unknown_option(e);
		return 0;
	}
	if (j->argc == 3 && opt->set(b, j->value, msg, sizeof msg) < 0) {
		lines_free(lines);
		engine_job_finish(e, ENGINE_ERROR, msg, NULL);
		return 0;
	}
	if (lines_add(lines, &n, b, opt) < 0)
		goto nomem;
	engine_job_finish(e, ENGINE_OK, NULL, lines);
	return 0;
nomem:
	lines_free(lines);
	engine_job_finish(e, ENGINE_ERROR, "Out of memory.", NULL);
	return 0;
}
