/*
 * config_int.h: what config.c and config_keys.c share, and no one else: the table's
 * sections and rows, and the readers both use.
 */
#ifndef BRIDGE_CONFIG_INT_H
#define BRIDGE_CONFIG_INT_H

#include <stddef.h>

/* The struct a section's keys are stored in: struct config, engine_profile,
 * listener_conf, bot_conf; [queue]'s are read elsewhere (bridge/match/queue.c). */
enum config_section { CONFIG_DAEMON, CONFIG_ENGINE, CONFIG_LISTEN, CONFIG_SITE, CONFIG_QUEUE };

struct config_key;
/* The row of key name in sec, or NULL. */
const struct config_key *config_key_find(enum config_section sec, const char *name);
/* Whether some key of that name may be empty (the check runs before the section is
 * known, for every section). */
int  config_key_empty_ok(const char *name);
/* Reads v into obj (the section's struct) as k says; -1 with err. */
int  config_key_set(const struct config_key *k, void *obj, const char *v, char *err, size_t errlen);
/* The section's defaults into obj, from the table. */
void config_section_defaults(enum config_section sec, void *obj);

/* free(*dst), then a copy of v (NULL: none) into it. */
void config_str_set(char **dst, const char *v);
/* Splits a command line on blanks. Single quotes are literal, double quotes allow \"
 * and \\, a backslash outside quotes escapes the next byte. NULL-terminated result
 * (caller frees with lines_free); NULL with err on error. */
char **config_command_split(const char *s, char *err, size_t errlen);
/* "builtin", or the kind of a protocol with a back end. */
int  config_kind_known(const char *s);

#endif
