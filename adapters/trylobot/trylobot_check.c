/*
 * trylobot_check.c: the Trylobot suite of `hivebridge check`: the shared
 * engine-interface checks (bridge/check/engine_checks.c) in Trylobot's words. A
 * module has nothing of its own to check beyond them: it cannot be stopped, plays
 * every expansion, and answers a forced pass with Forfeit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/trylobot/trylobot_check.h"
#include "bridge/check/check.h"

static void trylobot_check_note_start(struct checker *ck, struct result *r)
{
	char *s = xasprintf("connect to %s port %u | Greetings", ck->prof.host, ck->prof.port);
	check_note_sent(r, s);
	free(s);
	check_expect(r, "a Greetings answer with \"active\": true within %u ms", ck->prof.start_timeout_ms);
}

/* What a go sends (the trace log, --log, has the frames). */
static void trylobot_check_note_go(struct checker *ck, struct result *r, const char *gs,
				   const struct engine_limits *l)
{
	char *s;

	if (l->movetime_ms)
		s = xasprintf("Choose Turn for %s, response_deadline in %" PRIu64 " ms", gs, l->movetime_ms);
	else
		s = xasprintf("Choose Turn for %s", gs);
	check_note_sent(r, s);
	free(s);
}

/* The back end names a silent module after its address. */
static void trylobot_check_id(struct checker *ck, struct result *r)
{
	check_note_got(r, "%s", ck->id);
	check_expect(r, "\"name\" or \"long_name\" in the Greetings answer");
	if (!strncmp(ck->id, "Trylobot module", 15))
		check_fail(r, "the Greetings answer names no module");
}

const struct check_engine_spec trylobot_check_spec = {
	.started = "the answer",
	.pass_name = "Forfeit",
	.no_opponent_moves = 1,     /* the real core rejects every Special Ability */
	.pass_expect = "a Forfeit turn",
	.no_stop = "a Trylobot module cannot be interrupted",
	.no_caps = "a Trylobot module plays Base+MLP, every expansion",
	.note_start = trylobot_check_note_start,
	.note_go = trylobot_check_note_go,
	.check_id = trylobot_check_id,
};
