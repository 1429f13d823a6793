/*
 * otep_ini.c: an OTEP engine's .ini file (see otep_ini.h).
 */
#include "adapters/otep/otep_ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>
#include "bridge/util.h"
#include "core/errbuf.h"

/* Longest value kept; inih itself bounds a line. */
#define OI_VALUE_MAX 4096

struct oi_parse {
	char *v[5];          /* directory, filename, command, arguments, name */
	int   oom;
	int   sections;      /* [engine] seen */
};

static const char *const oi_keys[5] = { "directory", "filename", "command", "arguments", "name" };

static int oi_handler(void *user, const char *section, const char *key, const char *value)
{
	struct oi_parse *p = user;

	if (strcmp(section, "engine") != 0)
		return 1;          /* other sections are the engine's business */
	p->sections = 1;
	for (int i = 0; i < 5; i++) {
		if (strcmp(key, oi_keys[i]) != 0)
			continue;
		free(p->v[i]);
		p->v[i] = strndup(value, OI_VALUE_MAX);
		if (!p->v[i])
			p->oom = 1;
	}
	return 1;                  /* other keys are ignored */
}

int otep_ini_is_path(const char *spec)
{
	size_t n = spec ? strlen(spec) : 0;
	return n > 4 && !strcmp(spec + n - 4, ".ini") && !strpbrk(spec, " \t");
}

int otep_ini_split(const char *s, char ***argv, size_t *n, char *err, size_t errlen)
{
	size_t len = strlen(s);
	char *word = malloc(len + 1);

	if (!word)
		return errbuf_set(err, errlen, "out of memory");
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t w = 0;
		int quoted = 0;
		while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
			if (*s == '"')
				quoted = !quoted;
			else
				word[w++] = *s;
			s++;
		}
		if (quoted) {
			free(word);
			return errbuf_set(err, errlen, "unbalanced \" in arguments");
		}
		word[w] = 0;
		char **a = realloc(*argv, (*n + 2) * sizeof *a);
		char *copy = strdup(word);
		if (!a || !copy) {
			if (a)
				*argv = a;
			free(copy);
			free(word);
			return errbuf_set(err, errlen, "out of memory");
		}
		*argv = a;
		a[(*n)++] = copy;
		a[*n] = NULL;
	}
	free(word);
	return 0;
}

void otep_ini_free(struct otep_ini *ini)
{
	if (!ini)
		return;
	free(ini->directory);
	free(ini->filename);
	lines_free(ini->argv);
	free(ini->name);
	memset(ini, 0, sizeof *ini);
}

int otep_ini_parse(const char *text, const char *ini_dir, struct otep_ini *out,
		   char *err, size_t errlen)
{
	struct oi_parse p = { 0 };
	size_t n = 0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	int line = ini_parse_string(text, oi_handler, &p);
	if (p.oom) {
		errbuf_set(err, errlen, "out of memory");
		goto done;
	}
	if (line != 0) {
		errbuf_set(err, errlen, "line %d: syntax error", line);
		goto done;
	}
	if (!p.sections) {
		errbuf_set(err, errlen, "no [engine] section");
		goto done;
	}
	for (int i = 0; i < 3; i++)
		if (!p.v[i] || !*p.v[i]) {
			errbuf_set(err, errlen, "[engine] has no %s", oi_keys[i]);
			goto done;
		}
	if (strchr(p.v[1], '/')) {
		errbuf_set(err, errlen, "filename '%s' is a path, not a name in directory", p.v[1]);
		goto done;
	}
	/* As OTEP says, a relative directory is relative to the engines folder: the
	 * .ini's own. */
	if (p.v[0][0] == '/' || !ini_dir || !*ini_dir)
		out->directory = strdup(p.v[0]);
	else if (asprintf(&out->directory, "%s/%s", ini_dir, p.v[0]) < 0)
		out->directory = NULL;
	if (!out->directory || asprintf(&out->filename, "%s/%s", out->directory, p.v[1]) < 0) {
		out->filename = NULL;
		errbuf_set(err, errlen, "out of memory");
		goto done;
	}
	out->named = p.v[4] && *p.v[4];
	out->name = strdup(out->named ? p.v[4] : p.v[1]);
	if (!out->name) {
		errbuf_set(err, errlen, "out of memory");
		goto done;
	}
	/* The command is one word: a command with blanks is a job for arguments. */
	if (otep_ini_split(p.v[2], &out->argv, &n, err, errlen) < 0 ||
	    (p.v[3] && otep_ini_split(p.v[3], &out->argv, &n, err, errlen) < 0))
		goto done;
	if (n == 0) {
		errbuf_set(err, errlen, "[engine] has an empty command");
		goto done;
	}
	rc = 0;
done:
	for (int i = 0; i < 5; i++)
		free(p.v[i]);
	if (rc < 0)
		otep_ini_free(out);
	return rc;
}
