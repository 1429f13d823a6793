/*
 * unit_main.c: the one main of every unit test binary (tests/unit/test_*.c give it
 * their unit_suite). Runs every test, or each one whose "suite/test" or "test" name
 * matches a NAME given (a shell pattern works), then prints each failure in full and
 * exits 1 on any failure, 2 on a bad command line or a NAME that matches nothing.
 *   test_NAME [-l] [-t NAME]... [NAME]...
 */
#include <CUnit/Basic.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "tests/unit/unit.h"

struct unit_deadline {
	struct event_base *base;
	int                expired;
};

static void unit_expire(evutil_socket_t fd, short what, void *arg)
{
	struct unit_deadline *d = arg;

	d->expired = 1;
	event_base_loopbreak(d->base);
}

int unit_loop(struct event_base *base, const int *done, unsigned ms)
{
	struct unit_deadline d = { base, 0 };
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	struct event *ev = evtimer_new(base, unit_expire, &d);

	if (!ev)
		abort();
	evtimer_add(ev, &tv);
	if (done) {
		while (!*done && !d.expired)
			if (event_base_loop(base, EVLOOP_ONCE) < 0)
				break;
	} else {
		event_base_dispatch(base);
	}
	event_free(ev);
	return d.expired ? -1 : 0;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-l] [-t NAME]... [NAME]...\n"
		"  runs every test, or those whose \"suite/test\" or \"test\" name matches a NAME;\n"
		"  -l lists the names\n", prog);
}

static int unit_wanted(const char *test, char **names, int nnames)
{
	char full[512];
	snprintf(full, sizeof full, "%s/%s", unit_suite.name, test);
	if (nnames == 0)
		return 1;
	for (int i = 0; i < nnames; i++)
		if (!fnmatch(names[i], full, 0) || !fnmatch(names[i], test, 0))
			return 1;
	return 0;
}

/* Every failed assertion, with its test, file and line: the basic interface's
 * running notes can be lost among a test's own output. */
static void unit_print_failures(void)
{
	for (CU_pFailureRecord f = CU_get_failure_list(); f; f = f->pNext)
		fprintf(stderr, "FAIL %s/%s: %s:%u: %s\n", f->pSuite ? f->pSuite->pName : "?",
			f->pTest ? f->pTest->pName : "(suite setup or teardown)",
			f->strFileName ? f->strFileName : "?", f->uiLineNumber,
			f->strCondition ? f->strCondition : "?");
}

int main(int argc, char **argv)
{
	if (unit_suite.command) {
		int rc = unit_suite.command(argc, argv);
		if (rc >= 0)
			return rc;
	}
	/* The names given: -t NAME or NAME, in any order. */
	char **names = calloc((size_t)argc, sizeof *names);
	int nnames = 0, list = 0;
	if (!names)
		return 2;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l"))
			list = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			names[nnames++] = argv[++i];
		else if (argv[i][0] == '-') {
			usage(argv[0]);
			free(names);
			return 2;
		} else
			names[nnames++] = argv[i];
	}
	if (list) {
		for (const struct unit_test *t = unit_suite.tests; t->name; t++)
			if (unit_wanted(t->name, names, nnames))
				printf("%s/%s\n", unit_suite.name, t->name);
		free(names);
		return 0;
	}
	if (CU_initialize_registry() != CUE_SUCCESS) {
		fprintf(stderr, "%s: CUnit: %s\n", argv[0], CU_get_error_msg());
		free(names);
		return 1;
	}
	CU_pSuite s = CU_add_suite(unit_suite.name, unit_suite.setup, unit_suite.teardown);
	int added = 0;
	for (const struct unit_test *t = unit_suite.tests; s && t->name; t++) {
		if (!unit_wanted(t->name, names, nnames))
			continue;
		if (!CU_add_test(s, t->name, t->fn))
			break;
		added++;
	}
	free(names);
	if (CU_get_error() != CUE_SUCCESS) {
		fprintf(stderr, "%s: CUnit: %s\n", argv[0], CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	if (added == 0) {
		fprintf(stderr, "%s: no test matches (-l lists them)\n", argv[0]);
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
			  CU_get_number_of_suites_failed();
	if (failed) {
		fprintf(stderr, "\n");
		unit_print_failures();
		if (CU_get_number_of_suites_failed())
			fprintf(stderr, "FAIL %s: its setup or teardown failed\n", unit_suite.name);
	}
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
