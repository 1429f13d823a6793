/*
 * hub.c: Hub's row of the protocol table (bridge/protocol.h).
 */
#include "adapters/hub/hub_back.h"
#include "adapters/hub/hub_front.h"
#include "bridge/protocol.h"
#include "adapters/hub/hub_check.h"

const struct protocol protocol_hub = {
	.name = "hub",
	.engine_prefix = "hub:",
	.kind = "hub",
	.title = "Hub",
	.description = "Hub-style key=value lines (docs/hub-hive.md)",
	.target = PROTOCOL_COMMAND,
	.default_port = 5002,
	.stdio = 1,
	.engine_help = "an external Hub engine",
	.front = { .session_new = hub_front_new, .session_free = hub_front_free,
		   .refusal = hub_front_refusal },
	.back_new = hub_back_new,
	.check_suite = hub_check_suite,
};
