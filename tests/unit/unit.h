/*
 * unit.h: what a unit test file gives the one shared main (unit_main.c): its suite,
 * a table of named tests. A test binary runs them all, or those named on its command
 * line (`build/tests/test_config 'config/good file'`, `-t 'config/go*'`, `-l` lists).
 */
#ifndef HIVE_UNIT_H
#define HIVE_UNIT_H

#include <CUnit/CUnit.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

struct unit_suite {
	const char *name;
	/* Optional: run once before the first test and after the last (CUnit's suite
	 * init and cleanup: 0 on success; a failed setup fails the run). */
	int (*setup)(void);
	int (*teardown)(void);
	/* Optional: sees the command line first, for a binary that is also a tool
	 * (test_trylobot --dump DIR); -1 runs the tests, else the exit status. */
	int (*command)(int argc, char **argv);
	const struct unit_test *tests;   /* ends with { NULL, NULL } */
};

/* Each test file defines this one. */
extern const struct unit_suite unit_suite;

struct event_base;

/* Runs base until *done is set (done NULL: until a callback breaks the loop) or ms
 * pass; 0 if the deadline did not pass. The deadline is a timer of its own, deleted
 * on return: a leftover event_base_loopexit() of an earlier run ended a later one
 * early at load 15. */
int unit_loop(struct event_base *base, const int *done, unsigned ms);

#endif
