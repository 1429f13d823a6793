/*
 * uhp.c: UHP's row of the protocol table (bridge/protocol.h).
 */
#include "adapters/uhp/uhp_back.h"
#include "adapters/uhp/uhp_front.h"
#include "adapters/uhp/uhp_out.h"
#include "bridge/protocol.h"
#include "adapters/uhp/uhp_check.h"

const struct protocol protocol_uhp = {
	.name = "uhp",
	.engine_prefix = "uhp:",
	.kind = "uhp",
	.title = "UHP",
	.description = "the Universal Hive Protocol: text lines, each answer ended by \"ok\"",
	.target = PROTOCOL_COMMAND,
	.default_port = 5000,
	.stdio = 1,
	.engine_help = "an external UHP engine",
	.front = { .session_new = uhp_front_new, .session_free = uhp_front_free,
		   .refusal = uhp_out_refusal },
	.back_new = uhp_back_new,
	.check_suite = uhp_check_suite,
	.time_step_ms = 1000,        /* bestmove time hh:mm:ss */
};
