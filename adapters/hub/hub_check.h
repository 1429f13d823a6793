/*
 * hub_check.h: the Hub suite of `hivebridge check` (hub_check.c).
 */
#ifndef ADAPTERS_HUB_HUB_CHECK_H
#define ADAPTERS_HUB_HUB_CHECK_H

struct check_engine_spec;

/* The Hub suite: the shared engine-interface checks in Hub's words, and the
 * parameters an engine lists (the row's check_engine). */
extern const struct check_engine_spec hub_check_spec;

#endif
