/*
 * protocol.h: the one table of protocols. A protocol is one row (a const struct
 * protocol defined in its own folder, at the end of its front end's file) listed in
 * protocol.c, the only file of the runtime that names protocols. The daemon's listeners, the
 * stdio commands, the ENGINE syntax, the configuration's kind and protocol keys,
 * check and match all look protocols up here. "builtin" is no protocol: it is the
 * runtime's own back end (bridge/engine_builtin.c).
 */
#ifndef BRIDGE_PROTOCOL_H
#define BRIDGE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bridge/front.h"

struct check_engine_spec;
struct checker;
struct engine;
struct engine_profile;
struct event_base;

/* How an engine that speaks the protocol is reached: what follows the ENGINE prefix
 * and which profile keys it needs. */
enum protocol_target {
	PROTOCOL_COMMAND,          /* a program to run: "CMD ARGS", keys command and workdir */
	PROTOCOL_ADDRESS,          /* a server to connect to: "HOST:PORT", keys host and port */
};

struct protocol {
	/* Listener "protocol =", `hivebridge NAME` if stdio, the [engine] "kind =" of an
	 * engine that speaks it, and ENGINE "NAME:..." names such an engine. */
	const char *name;
	const char *title;         /* how help texts name it: "UHP" */
	const char *description;   /* one line, for docs and help */
	enum protocol_target target;
	uint16_t    default_port;  /* the embedded default listener's port, 0 = none */
	int         stdio;         /* `hivebridge NAME` serves it on stdin/stdout */
	const char *engine_help;   /* the ENGINE form's line in help: "an external UHP engine" */
	/* The front end (the bridge serving the protocol to a client); its session_new
	 * NULL if there is none. */
	struct front front;
	/* The back end (the bridge driving an engine that speaks it), NULL if none: an
	 * engine for profile p, owned by the caller (engine_free), who keeps p alive as
	 * long. NULL with the reason in err on failure. */
	struct engine *(*back_new)(struct event_base *base, const struct engine_profile *p,
				   char *err, size_t errlen);
	/* Optional: checks a profile of this kind before anything starts (beyond the
	 * runtime's own command or address check). -1 with the reason in err if it
	 * cannot work, 1 if it checked everything, 0 to go on with the runtime's check. */
	int (*back_check)(const struct engine_profile *p, char *err, size_t errlen);
	/* Its conformance suite for `hivebridge check`: the shared engine-interface checks
	 * in its words (bridge/check/check.h), then checks of its own; NULL for none of
	 * either. */
	const struct check_engine_spec *check_engine;
	void (*check_suite)(struct checker *ck);
	/* The back end's time limits come in whole steps of this many ms (a search
	 * time between them is rounded up), 0 if any time goes. */
	unsigned    time_step_ms;
};

/* Every protocol in table order, then NULL: for (i = 0; (p = protocol_at(i)); i++). */
const struct protocol *protocol_at(size_t i);
/* The protocol of a listener's "protocol =" (and of `hivebridge NAME`), or NULL. */
const struct protocol *protocol_find(const char *name);
/* The protocol of an engine profile's kind (its name), or NULL ("builtin" included). */
const struct protocol *protocol_by_kind(const char *kind);
/* The protocol with a back end whose "NAME:" starts ENGINE spec ("uhp:CMD ARGS"), with
 * *rest after the colon; NULL if none does. */
const struct protocol *protocol_for_engine(const char *spec, const char **rest);
/* What a bare ENGINE command speaks, and the protocol of a [listen] section or an
 * [engine] section that names none. */
const struct protocol *protocol_default(void);
/* The names of the protocols with a front end (backs = 0) or with a back end
 * (backs = 1), ", "-separated into buf (truncated to len). Returns buf. */
char *protocol_names(char *buf, size_t len, int backs);
/* The ENGINE forms of every command's help, one line each, indented by two spaces. */
void protocol_usage_engines(FILE *f);

#endif
