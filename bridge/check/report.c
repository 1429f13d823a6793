/*
 * report.c: the report of `hivebridge check`, as text (runs of passing checks
 * folded unless --verbose) or as JSON (schemas/check-report.json).
 */
#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bridge/check/check.h"

static const char *const status_names[] = { "run", "pass", "fail", "skip" };

struct check_tally check_tally(const struct checker *ck)
{
	struct check_tally t = { 0, 0, 0, 0 };
	for (size_t i = 0; i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		if (r->st == ST_PASS)
			t.passed++;
		else if (r->st == ST_SKIP)
			t.skipped++;
		else {
			t.failed++;
			t.required_failures += r->required != 0;
		}
	}
	return t;
}

static void print_list(FILE *f, const char *label, const struct strlist *l)
{
	if (!l->n)
		return;
	fprintf(f, "  %s: ", label);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s%s", i ? "; " : "", l->v[i]);
	if (l->n >= CHECK_SHOW_MOVES)
		fputs("; ...", f);
}

/* The part of a name between its brackets ("movegen.random[3]" -> "3"), or NULL. */
static const char *name_index(const char *name, size_t *baselen)
{
	const char *b = strchr(name, '[');
	*baselen = b ? (size_t)(b - name) : strlen(name);
	return b ? b + 1 : NULL;
}

/* Whether b continues a run of a (same indexed name, status and reason): such runs
 * are folded into one line unless --verbose. Failures are never folded. */
static int same_run(const struct result *a, const struct result *b, size_t base)
{
	if (a->st == ST_FAIL || b->st != a->st || b->required != a->required)
		return 0;
	if ((a->reason == NULL) != (b->reason == NULL) || (a->reason && strcmp(a->reason, b->reason)))
		return 0;
	return !strncmp(a->name, b->name, base + 1);
}

/* What a failed check shows of its exchange (beside its reason and lists), in this
 * order, in both reports: the number of details put into d. */
struct fail_detail {
	const char *key;
	const char *value;
};
static size_t fail_details(const struct result *r, struct fail_detail d[3])
{
	size_t n = 0;

	if (r->sent.len)
		d[n++] = (struct fail_detail){ "sent", r->sent.s };
	if (r->got.len)
		d[n++] = (struct fail_detail){ "got", r->got.s };
	if (r->expected)
		d[n++] = (struct fail_detail){ "expected", r->expected };
	return n;
}

void check_report_text(const struct checker *ck, FILE *f)
{
	static const char *const labels[] = { "????", "PASS", "FAIL", "SKIP" };
	struct check_tally t = check_tally(ck);

	fprintf(f, "engine: %s", ck->argv[0]);
	for (size_t i = 1; ck->argv[i]; i++)
		fprintf(f, " %s", ck->argv[i]);
	fprintf(f, "\nprotocol: %s", ck->protocol);
	if (ck->profile_name)
		fprintf(f, " (profile %s)", ck->profile_name);
	fprintf(f, "\nid: %s\ncapabilities: %s\n", ck->id[0] ? ck->id : "?", ck->caps[0] ? ck->caps : "(none)");
	for (size_t i = 0; i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		size_t base, j = i;
		const char *idx = name_index(r->name, &base);

		while (!ck->verbose && idx && j + 1 < ck->nres && same_run(r, ck->res[j + 1], base))
			j++;
		fprintf(f, "%s ", labels[r->st]);
		if (j > i) {
			size_t dummy;
			const char *last = name_index(ck->res[j]->name, &dummy);
			fprintf(f, "%.*s[%.*s..%s", (int)base, r->name, (int)strcspn(idx, "]"), idx, last);
		} else {
			fputs(r->name, f);
		}
		if (!r->required && r->st != ST_PASS)
			fputs(" (optional)", f);
		if (j > i)
			fprintf(f, "  (%zu checks)", j - i + 1);
		if (r->reason)
			fprintf(f, "%s%s", r->st == ST_SKIP ? "    " : "  ", r->reason);
		if (r->st == ST_FAIL) {
			struct fail_detail d[3];
			for (size_t k = 0, n = fail_details(r, d); k < n; k++)
				fprintf(f, "  %s: %s", d[k].key, d[k].value);
			print_list(f, "only-engine", &r->only_engine);
			print_list(f, "only-core", &r->only_core);
		}
		fputc('\n', f);
		i = j;
	}
	fprintf(f, "summary: %zu passed, %zu failed, %zu skipped (required failures: %zu)\n",
		t.passed, t.failed, t.skipped, t.required_failures);
}

static void json_list(cJSON *o, const char *key, const struct strlist *l)
{
	if (!l->n)
		return;
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (size_t i = 0; a && i < l->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(l->v[i]));
}

/* The report as JSON; -1 if it cannot be built. */
int check_report_json(const struct checker *ck, FILE *f)
{
	struct check_tally t = check_tally(ck);
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return -1;
	cJSON *argv = cJSON_AddArrayToObject(root, "command");
	for (size_t i = 0; argv && ck->argv[i]; i++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(ck->argv[i]));
	cJSON_AddStringToObject(root, "protocol", ck->protocol);
	if (ck->profile_name)
		cJSON_AddStringToObject(root, "profile", ck->profile_name);
	cJSON *eng = cJSON_AddObjectToObject(root, "engine");
	if (eng) {
		cJSON_AddStringToObject(eng, "id", ck->id);
		cJSON_AddStringToObject(eng, "capabilities", ck->caps);
		if (ck->sigint)
			cJSON_AddStringToObject(eng, "sigint", ck->sigint);
	}
	cJSON *opt = cJSON_AddObjectToObject(root, "options");
	if (opt) {
		char seed[32];
		snprintf(seed, sizeof seed, "%" PRIu64, ck->seed);
		cJSON_AddNumberToObject(opt, "timeout_ms", ck->timeout_ms);
		cJSON_AddNumberToObject(opt, "time_margin_ms", ck->margin_ms);
		cJSON_AddNumberToObject(opt, "positions", ck->positions);
		cJSON_AddStringToObject(opt, "seed", seed);
	}
	cJSON *checks = cJSON_AddArrayToObject(root, "checks");
	for (size_t i = 0; checks && i < ck->nres; i++) {
		const struct result *r = ck->res[i];
		cJSON *c = cJSON_CreateObject();
		if (!c)
			break;
		cJSON_AddStringToObject(c, "name", r->name);
		cJSON_AddStringToObject(c, "status", status_names[r->st]);
		cJSON_AddBoolToObject(c, "required", r->required);
		if (r->reason)
			cJSON_AddStringToObject(c, "reason", r->reason);
		if (r->st == ST_FAIL) {
			struct fail_detail d[3];
			for (size_t k = 0, n = fail_details(r, d); k < n; k++)
				cJSON_AddStringToObject(c, d[k].key, d[k].value);
			json_list(c, "only_engine", &r->only_engine);
			json_list(c, "only_core", &r->only_core);
		}
		cJSON_AddItemToArray(checks, c);
	}
	cJSON *sum = cJSON_AddObjectToObject(root, "summary");
	if (sum) {
		cJSON_AddNumberToObject(sum, "passed", (double)t.passed);
		cJSON_AddNumberToObject(sum, "failed", (double)t.failed);
		cJSON_AddNumberToObject(sum, "skipped", (double)t.skipped);
		cJSON_AddNumberToObject(sum, "required_failures", (double)t.required_failures);
	}
	cJSON_AddBoolToObject(root, "conformant", t.required_failures == 0);
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		return -1;
	fprintf(f, "%s\n", s);
	cJSON_free(s);
	return 0;
}

