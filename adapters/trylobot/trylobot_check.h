/*
 * trylobot_check.h: the Trylobot suite of `hivebridge check` (trylobot_check.c).
 */
#ifndef ADAPTERS_TRYLOBOT_TRYLOBOT_CHECK_H
#define ADAPTERS_TRYLOBOT_TRYLOBOT_CHECK_H

struct check_engine_spec;

/* The Trylobot suite: the shared engine-interface checks in Trylobot's words (the
 * row's check_engine); a module has nothing of its own to check beyond them. */
extern const struct check_engine_spec trylobot_check_spec;

#endif
