/*
 * test_protocol.c: the protocol table (bridge/protocol.c): every row complete and
 * unambiguous, and the lookups the daemon, the ENGINE syntax and the configuration
 * make through it.
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "bridge/config.h"
#include "bridge/protocol.h"
#include "tests/unit/unit.h"

static void test_rows(void)
{
	const struct protocol *p, *q;
	size_t n = 0;

	for (size_t i = 0; (p = protocol_at(i)) != NULL; i++, n++) {
		CU_ASSERT(p->name && *p->name && !strchr(p->name, ':') && p->title && p->description);
		CU_ASSERT(p->back_new || p->front.session_new);
		if (p->back_new)
			CU_ASSERT(p->engine_help != NULL);
		if (p->front.session_new)
			CU_ASSERT(p->front.session_free && p->front.refusal);
		CU_ASSERT(!p->stdio || p->front.session_new);
		CU_ASSERT(protocol_find(p->name) == p);
		CU_ASSERT(protocol_by_kind(p->name) == p);
		/* No row's name (its kind, its ENGINE prefix) is another's, nor the runtime's
		 * "builtin". */
		CU_ASSERT(strcmp(p->name, "builtin"));
		for (size_t j = 0; j < i; j++) {
			q = protocol_at(j);
			CU_ASSERT(strcmp(p->name, q->name));
			CU_ASSERT(!p->default_port || p->default_port != q->default_port);
		}
	}
	CU_ASSERT(n >= 3);
	CU_ASSERT(protocol_at(n) == NULL);
	p = protocol_default();
	CU_ASSERT(p == protocol_at(0) && p->back_new && p->front.session_new);
	CU_ASSERT(protocol_find("nope") == NULL && protocol_by_kind("builtin") == NULL);
}

/* A refused client gets the whole answer in its protocol, or nothing if it does not fit. */
static void test_refusals(void)
{
	const struct protocol *p;
	char buf[256];

	for (size_t i = 0; (p = protocol_at(i)) != NULL; i++) {
		if (!p->front.refusal)
			continue;
		size_t len = p->front.refusal(buf, sizeof buf, "Too many sessions.");
		CU_ASSERT(len > 0 && len < sizeof buf && strlen(buf) == len);
		CU_ASSERT(strstr(buf, "Too many sessions.") != NULL);
		CU_ASSERT(p->front.refusal(buf, 4, "Too many sessions.") == 0);
	}
	p = protocol_find("uhp");
	CU_ASSERT(p && p->front.refusal(buf, sizeof buf, "No.") == strlen("err No.\nok\n") &&
		  !strcmp(buf, "err No.\nok\n"));
}

static void test_engine_prefix(void)
{
	const char *rest = NULL;
	const struct protocol *p;

	p = protocol_for_engine("uhp:/opt/e --x a:b", &rest);
	CU_ASSERT(p && !strcmp(p->name, "uhp") && !strcmp(rest, "/opt/e --x a:b"));
	p = protocol_for_engine("hub:./scan hub", &rest);
	CU_ASSERT(p && !strcmp(p->name, "hub") && !strcmp(rest, "./scan hub"));
	p = protocol_for_engine("trylobot:127.0.0.1:51337", &rest);
	CU_ASSERT(p && p->target == PROTOCOL_ADDRESS && !strcmp(rest, "127.0.0.1:51337"));
	CU_ASSERT(protocol_for_engine("/opt/e --x a:b", &rest) == NULL);
	CU_ASSERT(protocol_for_engine("uhp", &rest) == NULL);
	CU_ASSERT(protocol_for_engine("uhpx:e", &rest) == NULL);
	CU_ASSERT(protocol_for_engine("uhp-remote:h:1", &rest) == NULL);   /* no back end */
	CU_ASSERT(protocol_for_engine("builtin:depth=3", &rest) == NULL);
}

static void test_names(void)
{
	char buf[256], small[6];

	CU_ASSERT_STRING_EQUAL(protocol_names(buf, sizeof buf, 1), "uhp, hub, trylobot, otep");
	CU_ASSERT_STRING_EQUAL(protocol_names(buf, sizeof buf, 0), "uhp, hub, trylobot, otep, uhp-remote, uhp-spectate, uhp-player");
	CU_ASSERT_STRING_EQUAL(protocol_names(small, sizeof small, 1), "uhp");
}

/* The embedded listeners come from the table: one per protocol with a front end
 * and a default port, in table order. */
static void test_default_listeners(void)
{
	struct config c;
	const struct protocol *p;
	size_t k = 0;

	config_defaults(&c);
	for (size_t i = 0; (p = protocol_at(i)) != NULL; i++) {
		if (!p->front.session_new || !p->default_port)
			continue;
		CU_ASSERT_FATAL(k < c.nlisteners);
		CU_ASSERT_STRING_EQUAL(c.listeners[k].protocol, p->name);
		CU_ASSERT_EQUAL(c.listeners[k].port, p->default_port);
		k++;
	}
	CU_ASSERT_EQUAL(k, c.nlisteners);
	CU_ASSERT_EQUAL(c.listeners[0].port, 5000);
	config_free(&c);
}

static const struct unit_test tests[] = {
	{ "every row complete and unambiguous", test_rows },
	{ "refusals", test_refusals },
	{ "ENGINE prefixes", test_engine_prefix },
	{ "names for messages", test_names },
	{ "default listeners", test_default_listeners },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "protocol",
	.tests = tests,
};
