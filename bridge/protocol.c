/*
 * protocol.c: the table of protocols, the one list that names them. Each row lives
 * in its protocol's folder (at the end of its front end's file); adding a protocol is one line here (see
 * docs/architecture.md, "Adding a protocol").
 */
#include <string.h>
#include "bridge/protocol.h"

extern const struct protocol protocol_uhp;
extern const struct protocol protocol_hub;
extern const struct protocol protocol_trylobot;
extern const struct protocol protocol_otep;
extern const struct protocol protocol_uhp_remote;
extern const struct protocol protocol_uhp_spectate;
extern const struct protocol protocol_uhp_player;

/* The first row is the default: a bare ENGINE command speaks it. */
static const struct protocol *const protocols[] = {
	&protocol_uhp,
	&protocol_hub,
	&protocol_trylobot,
	&protocol_otep,
	&protocol_uhp_remote,
	&protocol_uhp_spectate,
	&protocol_uhp_player,
};

#define NPROTOCOLS (sizeof protocols / sizeof protocols[0])

const struct protocol *protocol_at(size_t i)
{
	return i < NPROTOCOLS ? protocols[i] : NULL;
}

const struct protocol *protocol_find(const char *name)
{
	for (size_t i = 0; i < NPROTOCOLS; i++)
		if (!strcmp(protocols[i]->name, name))
			return protocols[i];
	return NULL;
}

/* An engine's kind is its protocol's name. */
const struct protocol *protocol_by_kind(const char *kind)
{
	return protocol_find(kind);
}

const struct protocol *protocol_for_engine(const char *spec, const char **rest)
{
	for (size_t i = 0; i < NPROTOCOLS; i++) {
		size_t n = strlen(protocols[i]->name);
		if (protocols[i]->back_new && !strncmp(spec, protocols[i]->name, n) && spec[n] == ':') {
			*rest = spec + n + 1;
			return protocols[i];
		}
	}
	return NULL;
}

const struct protocol *protocol_default(void)
{
	return protocols[0];
}

char *protocol_names(char *buf, size_t len, int backs)
{
	size_t n = 0;

	if (len == 0)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < NPROTOCOLS; i++) {
		const struct protocol *p = protocols[i];
		if (backs ? !p->back_new : !p->front.session_new)
			continue;
		int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", p->name);
		if (w < 0 || (size_t)w >= len - n) {
			buf[n] = 0;          /* whole names only */
			break;
		}
		n += (size_t)w;
	}
	return buf;
}

void protocol_usage_engines(FILE *f)
{
	const struct protocol *d = protocol_default();

	fputs("  builtin | builtin:depth=N   the built-in engine (at a fixed depth)\n"
	      "  builtin:movetime=MS         the built-in engine at MS a move (match and\n"
	      "                              tournament: its own limit, not the match's)\n"
	      "  NAME                        an [engine NAME] profile of --config\n", f);
	fprintf(f, "  \"CMD ARGS\"                  the same as %s:CMD ARGS (the command is\n"
		"                              split like a config file's)\n", d->name);
	for (size_t i = 0; i < NPROTOCOLS; i++) {
		const struct protocol *p = protocols[i];
		char form[64];
		if (!p->back_new)
			continue;
		snprintf(form, sizeof form, "%s:%s", p->name,
			 p->target == PROTOCOL_ADDRESS ? "HOST:PORT" : "CMD ARGS");
		fprintf(f, "  %-26s  %s\n", form, p->engine_help);
	}
}
