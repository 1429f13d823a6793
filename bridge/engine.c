/*
 * engine.c: engine_new(), the factory that picks the back end a profile names: the
 * built-in one, or the back end of the protocol its kind names (bridge/protocol.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/protocol.h"

struct engine *engine_new(struct event_base *base, const struct engine_profile *p, char **cause)
{
	const char *kind = p && p->kind ? p->kind : "builtin";
	const struct protocol *pr;

	if (!strcmp(kind, "builtin"))
		return engine_builtin_new(base, p, cause);
	if ((pr = protocol_by_kind(kind)) != NULL && pr->back_new)
		return pr->back_new(base, p, cause);
	if (asprintf(cause, "profile %s: unknown engine kind \"%s\"",
		     p && p->name ? p->name : "?", kind) < 0)
		*cause = NULL;
	return NULL;
}

void engine_failure_reason(const struct engine_result *r, char *buf, size_t len)
{
	const char *msg = r->message ? r->message : "no reason given";
	if (r->status == ENGINE_FAILED) {
		if (!strncmp(msg, "illegal move", 12))
			snprintf(buf, len, "%s", msg);
		else if (!strncmp(msg, "unreadable move", 15))
			snprintf(buf, len, "illegal move: %s", msg);
		else if (strstr(msg, "in time") || strstr(msg, "did not stop"))
			snprintf(buf, len, "time forfeit (engine stalled: %s)", msg);
		else
			snprintf(buf, len, "engine crashed: %s", msg);
	} else if (r->status == ENGINE_INVALID) {
		snprintf(buf, len, "engine refused a legal move: %s", msg);
	} else {
		snprintf(buf, len, "engine error: %s", msg);
	}
}
