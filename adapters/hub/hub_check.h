/*
 * hub_check.h: the Hub suite of `hivebridge check` (hub_check.c).
 */
#ifndef ADAPTERS_HUB_HUB_CHECK_H
#define ADAPTERS_HUB_HUB_CHECK_H

struct checker;

/* The whole Hub suite against the engine of ck->prof. */
void hub_check_suite(struct checker *ck);

#endif
