/*
 * otep.c: OTEP's row of the protocol table (bridge/protocol.h).
 */
#include "adapters/otep/otep_back.h"
#include "adapters/otep/otep_check.h"
#include "adapters/otep/otep_front.h"
#include "adapters/otep/otep_ini.h"
#include "bridge/config.h"
#include "bridge/protocol.h"

/* An engine given as its own .ini file is checked through that file; a command
 * line is left to the runtime's check. */
static int otep_profile_check(const struct engine_profile *p, char *err, size_t errlen)
{
	if (!p->argv || !p->argv[0] || p->argv[1] || !otep_ini_is_path(p->argv[0]))
		return 0;
	return otep_back_check(p, err, errlen) < 0 ? -1 : 1;
}

const struct protocol protocol_otep = {
	.name = "otep",
	.engine_prefix = "otep:",
	.kind = "otep",
	.title = "OTEP",
	.description = "the OpenTafl engine protocol carried over to Hive (docs/otep-hive.md)",
	.target = PROTOCOL_COMMAND,
	.default_port = 0,
	.stdio = 1,
	.engine_help = "an external OTEP engine: its .ini file, or a command line",
	.front = { .session_new = otep_front_new,
		   .session_free = otep_front_free, .refusal = otep_front_refusal },
	.back_new = otep_back_new,
	.back_check = otep_profile_check,
	.check_suite = otep_check_suite,
};
