/*
 * engine.c: engine_new(), the factory that picks the back end a profile names.
 * Adding a back end means one row in the table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/otep/otep_back.h"
#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/engine_builtin.h"
#include "bridge/engine_hub.h"
#include "bridge/engine_trylobot.h"
#include "bridge/engine_uhp.h"

static const struct engine_kind {
	const char *kind;
	struct engine *(*create)(struct event_base *base, const struct engine_profile *p,
				 char **cause);
} engine_kinds[] = {
	{ "builtin", engine_builtin_new },
	{ "uhp", engine_uhp_new },
	{ "hub", engine_hub_new },
	{ "trylobot", engine_trylobot_new },
	{ "otep", otep_back_new },
};

struct engine *engine_new(struct event_base *base, const struct engine_profile *p, char **cause)
{
	const char *kind = p && p->kind ? p->kind : "builtin";

	for (size_t i = 0; i < sizeof engine_kinds / sizeof engine_kinds[0]; i++)
		if (strcmp(engine_kinds[i].kind, kind) == 0)
			return engine_kinds[i].create(base, p, cause);
	if (asprintf(cause, "profile %s: unknown engine kind \"%s\"",
		     p && p->name ? p->name : "?", kind) < 0)
		*cause = NULL;
	return NULL;
}
