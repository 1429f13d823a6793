/*
 * engine_options.h: the engine interface's option lines (engine_options() and its
 * result lines, bridge/engine.h): Name;Type;Value;Default[;Min;Max | ;Value1;...].
 * It is the format UHP's "options" answers use (adapters/uhp/uhp_codec.h mirrors it
 * under UHP's names); every back end formats its engine's options in it, and a front
 * end whose protocol says options otherwise (Hub's param lines) parses it. Parse and
 * format only, no I/O.
 */
#ifndef BRIDGE_ENGINE_OPTIONS_H
#define BRIDGE_ENGINE_OPTIONS_H

#include <stddef.h>

enum engine_opt_type { ENGINE_OPT_BOOL, ENGINE_OPT_INT, ENGINE_OPT_DOUBLE, ENGINE_OPT_ENUM };

#define ENGINE_OPT_NAME_MAX   64
#define ENGINE_OPT_VALUE_MAX  64
#define ENGINE_OPT_MAX_VALUES 32

/* One option line. */
struct engine_option {
	char                 name[ENGINE_OPT_NAME_MAX];
	enum engine_opt_type type;
	char                 value[ENGINE_OPT_VALUE_MAX];
	char                 def[ENGINE_OPT_VALUE_MAX];
	char                 min[ENGINE_OPT_VALUE_MAX];   /* int/double; "" if absent */
	char                 max[ENGINE_OPT_VALUE_MAX];
	size_t               nvalues;                     /* enum */
	char                 values[ENGINE_OPT_MAX_VALUES][ENGINE_OPT_VALUE_MAX];
};

/* Parses an option line (pointer, length; trailing CR and blanks ignored); -1 with a
 * reason in err (errlen bytes) on failure. */
int    engine_option_parse(const char *line, size_t len, struct engine_option *o,
			   char *err, size_t errlen);
/* Formats an option line into buf; returns the length it needs, like snprintf. */
size_t engine_option_format(const struct engine_option *o, char *buf, size_t len);
/* Type name ("bool", ...; static storage) and its case-insensitive parse (-1 if unknown). */
const char *engine_opt_type_name(enum engine_opt_type t);
int         engine_opt_type_parse(const char *s, size_t len);

#endif
