/*
 * trylobot.c: Trylobot's row of the protocol table (bridge/protocol.h).
 */
#include "adapters/trylobot/trylobot_back.h"
#include "adapters/trylobot/trylobot_front.h"
#include "bridge/protocol.h"
#include "adapters/trylobot/trylobot_check.h"

const struct protocol protocol_trylobot = {
	.name = "trylobot",
	.engine_prefix = "trylobot:",
	.kind = "trylobot",
	.title = "Trylobot",
	.description = "Trylobot's AI-module API: length-prefixed JSON frames over TCP",
	.target = PROTOCOL_ADDRESS,
	.default_port = 51337,         /* Trylobot's own default */
	.stdio = 0,
	.engine_help = "a Trylobot AI module",
	.front = { .session_new = trylobot_front_new, .session_free = trylobot_front_free,
		   .refusal = trylobot_front_refusal },
	.back_new = trylobot_back_new,
	.check_suite = trylobot_check_suite,
};
