/*
 * hub_front_params.c: a Hub session's parameters (docs/hub-hive.md): the variant,
 * the hash size and the engine's own options, listed by `hub` and changed by
 * `set-param`. The engine's options are listed once it has started and cached; a
 * change goes to the engine as "options set" and its answer updates the cache.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "adapters/hub/hub_front_int.h"
#include "bridge/config.h"
#include "bridge/version.h"

/* ---- the engine's options, as Hub parameters ---- */

static struct engine_option *option_find(struct hub_front *s, const char *name)
{
	for (size_t i = 0; i < s->nopts; i++)
		if (!strcasecmp(s->opts[i].name, name))
			return &s->opts[i];
	return NULL;
}

/* Replaces the cached option lines with the engine's list. */
static void options_load(struct hub_front *s, const char **lines)
{
	size_t n = 0;
	char err[128];

	free(s->opts);
	s->opts = NULL;
	s->nopts = 0;
	for (const char **l = lines; l && *l; l++)
		n++;
	if (n == 0 || !(s->opts = calloc(n, sizeof *s->opts)))
		return;
	for (const char **l = lines; *l; l++) {
		if (engine_option_parse(*l, strlen(*l), &s->opts[s->nopts], err, sizeof err) < 0) {
			log_note(s->io.id, "hub: engine option line ignored (%s): %s", err, *l);
			continue;
		}
		s->nopts++;
	}
}

/* Takes the engine's answer to "options set" into the cache. */
static void options_update(struct hub_front *s, const char **lines, const char *name,
			   const char *value)
{
	struct engine_option o;
	struct engine_option *cur = option_find(s, name);
	char err[128];

	if (!cur)
		return;
	if (lines && lines[0] && engine_option_parse(lines[0], strlen(lines[0]), &o, err, sizeof err) == 0 &&
	    !strcasecmp(o.name, name))
		*cur = o;
	else
		snprintf(cur->value, sizeof cur->value, "%s", value);
}

static void opt_argv_free(struct hub_front *s)
{
	for (int i = 0; i < 3; i++) {
		free(s->opt_argv[i]);
		s->opt_argv[i] = NULL;
	}
}

static void options_cb(void *arg, const struct engine_result *r);

/* Sends "options set name value" to the engine; the answer comes to options_cb. */
static int engine_set(struct hub_front *s, enum hf_optjob job, const char *name, const char *value)
{
	char cause[256] = "";
	struct engine *e = session_io_engine(&s->io, cause, sizeof cause);

	if (!e) {
		if (job == HF_JOB_SET)
			out_error(s, "engine failed: %s", cause[0] ? cause : "cannot create it");
		return -1;
	}
	opt_argv_free(s);
	s->opt_argv[0] = strdup("set");
	s->opt_argv[1] = strdup(name);
	s->opt_argv[2] = strdup(value);
	if (!s->opt_argv[0] || !s->opt_argv[1] || !s->opt_argv[2]) {
		opt_argv_free(s);
		if (job == HF_JOB_SET)
			out_error(s, "out of memory");
		return -1;
	}
	s->busy = HF_OPTIONS;
	s->optjob = job;
	if (engine_options(e, 3, (const char **)s->opt_argv, options_cb, s) < 0) {
		s->busy = HF_IDLE;
		opt_argv_free(s);
		if (job == HF_JOB_SET)
			out_error(s, "the engine cannot take parameters now");
		return -1;
	}
	return 0;
}

static void options_cb(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;
	enum hf_optjob job = s->optjob;

	s->busy = HF_IDLE;
	switch (job) {
	case HF_JOB_LIST:
		if (r->status != ENGINE_OK) {
			log_note(s->io.id, "hub: the engine lists no options: %s",
				 r->message ? r->message : "?");
			break;
		}
		options_load(s, r->lines);
		/* info lines need the engine to report its iterations. */
		struct engine_option *rep = option_find(s, HF_OPT_REPORT);
		if (rep && strcasecmp(rep->value, "true") != 0 &&
		    engine_set(s, HF_JOB_REPORT, HF_OPT_REPORT, "True") == 0)
			return;
		break;
	case HF_JOB_REPORT:
	case HF_JOB_SET:
		if (r->status == ENGINE_OK) {
			options_update(s, r->lines, s->opt_argv[1], s->opt_argv[2]);
		} else if (job == HF_JOB_SET) {
			out_error(s, "set-param %s: %s", s->opt_argv[1],
				  r->message ? r->message : "refused by the engine");
		} else {
			log_note(s->io.id, "hub: the engine refused %s: %s", HF_OPT_REPORT,
				 r->message ? r->message : "?");
		}
		break;
	}
	opt_argv_free(s);
	session_io_schedule(&s->io);
}

void hub_params_started(void *arg, const struct engine_result *r)
{
	struct hub_front *s = arg;

	s->busy = HF_IDLE;
	if (r->status != ENGINE_OK && session_io_start_failed(&s->io, r->message))
		return;
	if (r->status != ENGINE_OK) {
		/* Said at the next command that needs it; the back end restarts on use. */
		log_note(s->io.id, "hub: engine did not start: %s", r->message ? r->message : "?");
		session_io_schedule(&s->io);
		return;
	}
	s->busy = HF_OPTIONS;
	s->optjob = HF_JOB_LIST;
	if (engine_options(s->io.engine, 0, (const char **)s->opt_argv, options_cb, s) < 0) {
		s->busy = HF_IDLE;
		log_note(s->io.id, "hub: the engine cannot list its options");
	}
	session_io_schedule(&s->io);
}

/* param line of one engine option (UHP option types mapped onto Hub's). */
static void out_param_option(struct hub_front *s, const struct engine_option *o)
{
	char line[4096], values[ENGINE_OPT_MAX_VALUES * (ENGINE_OPT_VALUE_MAX + 1)];
	struct span_writer w;
	size_t n = 0;

	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", o->name);
	switch (o->type) {
	case ENGINE_OPT_BOOL:
		hub_writer_add(&w, "value", strcasecmp(o->value, "true") ? "false" : "true");
		hub_writer_add(&w, "type", "bool");
		break;
	case ENGINE_OPT_INT:
	case ENGINE_OPT_DOUBLE:
		hub_writer_add(&w, "value", o->value);
		hub_writer_add(&w, "type", o->type == ENGINE_OPT_INT ? "int" : "real");
		if (o->min[0])
			hub_writer_add(&w, "min", o->min);
		if (o->max[0])
			hub_writer_add(&w, "max", o->max);
		break;
	case ENGINE_OPT_ENUM:
		hub_writer_add(&w, "value", o->value);
		hub_writer_add(&w, "type", "enum");
		values[0] = 0;
		for (size_t i = 0; i < o->nvalues; i++)
			n += (size_t)snprintf(values + n, sizeof values - n, "%s%s", i ? " " : "",
					      o->values[i]);
		hub_writer_add(&w, "values", values);
		break;
	}
	out_writer(s, &w);
}

/* Game types in the order the docs list them (expansion bits M=1, L=2, P=4). */
static const unsigned hf_variants[] = { 0, 1, 2, 4, 3, 5, 6, 7 };

void hub_params_variants(char *buf, size_t len, const char *sep, const char *last_sep)
{
	size_t n = 0, nv = sizeof hf_variants / sizeof hf_variants[0];
	buf[0] = 0;
	for (size_t i = 0; i < nv && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i == 0 ? "" : i + 1 == nv ? last_sep : sep,
				      hive_gametype_name(hf_variants[i]));
}

void hub_params_cmd_hub(struct hub_front *s, const struct hub_msg *m)
{
	struct span_writer w;
	char line[4096], values[256];
	const struct engine_option *hash = option_find(s, HF_OPT_HASH);

	hub_writer_begin(&w, line, sizeof line, "id");
	hub_writer_add(&w, "name", "hivebridge");
	hub_writer_add(&w, "version", version_string);
	hub_writer_add(&w, "author", "The hivebridge authors");
	if (s->io.engine && s->io.engine->id[0] && strcmp(s->io.engine->ops->name, "builtin") != 0)
		hub_writer_add(&w, "engine", s->io.engine->id);
	out_writer(s, &w);

	hub_params_variants(values, sizeof values, " ", " ");
	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", "variant");
	hub_writer_add(&w, "value", hive_gametype_name(s->variant));
	hub_writer_add(&w, "type", "enum");
	hub_writer_add(&w, "values", values);
	out_writer(s, &w);

	hub_writer_begin(&w, line, sizeof line, "param");
	hub_writer_add(&w, "name", "hash");
	if (hash)
		hub_writer_add(&w, "value", hash->value);
	else
		hub_writer_addf(&w, "value", "%zu", s->hash_mb);
	hub_writer_add(&w, "type", "int");
	hub_writer_addf(&w, "min", "%d", HF_HASH_MIN);
	hub_writer_addf(&w, "max", "%d", s->hash_mb_max);
	out_writer(s, &w);

	for (size_t i = 0; i < s->nopts; i++)
		if (strcasecmp(s->opts[i].name, HF_OPT_HASH) != 0)
			out_param_option(s, &s->opts[i]);
	out_str(s, "wait");
}

/* An integer in [lo, hi]; -1 otherwise. */
static int parse_int(const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (!*v || *end || errno || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

/* Checks a parameter value against its option's type; *uhp gets the value as the
 * engine spells it. -1 with the reason in err. */
static int option_value(const struct engine_option *o, const char *v, const char **uhp,
			char *err, size_t errlen)
{
	long long n, lo = INT64_MIN, hi = INT64_MAX;
	char *end;

	*uhp = v;
	switch (o->type) {
	case ENGINE_OPT_BOOL:
		if (!strcasecmp(v, "true"))
			*uhp = "True";
		else if (!strcasecmp(v, "false"))
			*uhp = "False";
		else
			goto bad;
		return 0;
	case ENGINE_OPT_INT:
		if (o->min[0])
			lo = strtoll(o->min, NULL, 10);
		if (o->max[0])
			hi = strtoll(o->max, NULL, 10);
		if (parse_int(v, lo, hi, &n) < 0)
			goto bad;
		return 0;
	case ENGINE_OPT_DOUBLE: {
		errno = 0;
		double d = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(d) ||
		    (o->min[0] && d < strtod(o->min, NULL)) || (o->max[0] && d > strtod(o->max, NULL)))
			goto bad;
		return 0;
	}
	case ENGINE_OPT_ENUM:
		for (size_t i = 0; i < o->nvalues; i++)
			if (!strcmp(o->values[i], v))
				return 0;
		goto bad;
	}
bad:
	snprintf(err, errlen, "bad value '%.64s' for parameter '%s'", v, o->name);
	return -1;
}

void hub_params_cmd_set(struct hub_front *s, const struct hub_msg *m)
{
	const char *name = hub_msg_get(m, "name"), *value = hub_msg_get(m, "value");
	char err[256], list[256];
	const char *uhp;
	long long n;
	unsigned type;

	if (!name || !value || !hub_msg_arg(m, "value")->has_value) {
		out_error(s, "set-param needs name= and value=");
		return;
	}
	if (!strcmp(name, "variant")) {
		if (hive_gametype_parse(value, &type) != 0) {
			hub_params_variants(list, sizeof list, ", ", " or ");
			out_error(s, "unknown variant '%.64s' (%s)", value, list);
			return;
		}
		s->variant = type;
		return;
	}
	if (!strcmp(name, "hash")) {
		if (parse_int(value, HF_HASH_MIN, s->hash_mb_max, &n) < 0) {
			out_error(s, "bad hash '%.64s': expected an integer from %d to %d", value,
				  HF_HASH_MIN, s->hash_mb_max);
			return;
		}
		s->hash_mb = (size_t)n;
		if (option_find(s, HF_OPT_HASH))
			engine_set(s, HF_JOB_SET, HF_OPT_HASH, value);
		return;
	}
	const struct engine_option *o = option_find(s, name);
	if (!o || !strcasecmp(name, HF_OPT_HASH)) {
		out_error(s, "unknown parameter '%.64s'", name);
		return;
	}
	if (option_value(o, value, &uhp, err, sizeof err) < 0) {
		out_error(s, "%s", err);
		return;
	}
	engine_set(s, HF_JOB_SET, o->name, uhp);
}

void hub_params_free(struct hub_front *s)
{
	opt_argv_free(s);
	free(s->opts);
	s->opts = NULL;
	s->nopts = 0;
}
