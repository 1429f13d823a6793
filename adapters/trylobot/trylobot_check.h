/*
 * trylobot_check.h: the Trylobot suite of `hivebridge check` (trylobot_check.c).
 */
#ifndef ADAPTERS_TRYLOBOT_TRYLOBOT_CHECK_H
#define ADAPTERS_TRYLOBOT_TRYLOBOT_CHECK_H

struct checker;

/* The whole Trylobot suite against the module of ck->prof. */
void trylobot_check_suite(struct checker *ck);

#endif
