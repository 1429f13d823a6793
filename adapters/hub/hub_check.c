/*
 * hub_check.c: the Hub suite of `hivebridge check`: the shared engine-interface
 * checks (bridge/check/engine_checks.c) in Hub's words, and the parameters an
 * engine lists after "hub".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/hub/hub_check.h"
#include "bridge/check/check.h"

#define HUB_CHECK_PARAMS_MS 2000        /* deadline of listing the parameters */

static void hub_check_note_start(struct checker *ck, struct result *r)
{
	check_note_sent(r, "hub");
	for (size_t i = 0; i < ck->prof.noptions; i++) {
		char *s = xasprintf("set-param name=%s value=%s", ck->prof.options[i][0], ck->prof.options[i][1]);
		check_note_sent(r, s);
		free(s);
	}
	check_note_sent(r, "init");
	check_expect(r, "id and param lines, then \"wait\" after \"hub\"; \"ready\" after \"init\"; "
		     "each within %u ms", ck->prof.start_timeout_ms);
}

/* What a go sends (the trace log, --log, has the bytes). */
static void hub_check_note_go(struct checker *ck, struct result *r, const char *gs,
			      const struct engine_limits *l)
{
	char lim[64];

	if (l->infinite)
		snprintf(lim, sizeof lim, "infinite");
	else if (l->movetime_ms)
		snprintf(lim, sizeof lim, "move-time=%.3f", (double)l->movetime_ms / 1000);
	else
		snprintf(lim, sizeof lim, "depth=%d", l->depth);
	char *s = xasprintf("pos pos=\"%s\" | level %s | go %s", gs, lim, l->infinite ? "analyze" : "think");
	check_note_sent(r, s);
	free(s);
}

/* The back end names a silent engine after its command. */
static void hub_check_id(struct checker *ck, struct result *r)
{
	check_note_got(r, "%s", ck->id);
	check_expect(r, "an \"id name=...\" line before \"wait\"");
	if (!strcmp(ck->id, ck->prof.argv[0]))
		check_fail(r, "no id line");
}

static void hub_check_caps(struct checker *ck, struct result *r)
{
	check_note_got(r, "%s", ck->caps);
	r->reason = xasprintf("from the variant parameter (every expansion without one): %s",
			      ck->caps[0] ? ck->caps : "Base only");
}

/* Optional: docs/hub-hive.md asks for variant and hash at least. */
static void hub_check_params(struct checker *ck)
{
	struct ewait w = { .base = ck->base };
	struct result *r = check_begin(ck, 0, "startup.params");

	if (!r)
		return;
	check_expect(r, "param lines for variant and hash (the ones the engine interface can show)");
	check_note_sent(r, "hub");
	if (engine_options(ck->engine, 0, NULL, ewait_done, &w) < 0) {
		check_fail(r, "the back end is busy");
	} else if (ewait_run(ck, &w, HUB_CHECK_PARAMS_MS) < 0) {
		check_engine_abandon(ck, r, HUB_CHECK_PARAMS_MS);
	} else if (w.status != ENGINE_OK) {
		check_fail(r, "cannot list them: %s", w.message ? w.message : "?");
	} else {
		struct sbuf got = { 0 };
		int variant = 0, hash = 0;
		for (size_t i = 0; i < w.lines.n; i++) {
			sbuf_printf(&got, "%s%s", i ? " | " : "", w.lines.v[i]);
			variant |= check_starts_with(w.lines.v[i], "variant;");
			hash |= check_starts_with(w.lines.v[i], "hash;");
		}
		check_note_got(r, "%s", got.s ? got.s : "<no parameters>");
		sbuf_free(&got);
		if (!variant || !hash)
			check_fail(r, "no %s parameter", variant ? "hash" : "variant");
	}
	ewait_free(&w);
	check_end(r);
}

const struct check_engine_spec hub_check_spec = {
	.id_required = 1,
	.started = "ready",
	.pass_name = "\"pass\"",
	.pass_expect = "done move=pass",
	.note_start = hub_check_note_start,
	.note_go = hub_check_note_go,
	.check_id = hub_check_id,
	.check_caps = hub_check_caps,
	.startup_more = hub_check_params,
};
