/*
 * otep_check.h: the OTEP suite of `hivebridge check` (otep_check.c).
 */
#ifndef ADAPTERS_OTEP_OTEP_CHECK_H
#define ADAPTERS_OTEP_OTEP_CHECK_H

struct checker;

/* The whole OTEP suite against the engine of ck->prof (an .ini or a command line). */
void otep_check_suite(struct checker *ck);

#endif
