/*
 * otep_check.h: the OTEP suite of `hivebridge check` (otep_check.c).
 */
#ifndef ADAPTERS_OTEP_OTEP_CHECK_H
#define ADAPTERS_OTEP_OTEP_CHECK_H

struct check_engine_spec;
struct checker;

/* The OTEP suite against the engine of ck->prof (an .ini or a command line): the
 * shared engine-interface checks in OTEP's words (the row's check_engine), then
 * OTEP's own (the row's check_suite). */
extern const struct check_engine_spec otep_check_spec;
void otep_check_suite(struct checker *ck);

#endif
