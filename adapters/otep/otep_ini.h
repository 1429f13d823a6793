/*
 * otep_ini.h: an OTEP engine's own .ini file (docs/otep-hive.md, section 2), read
 * with inih from a string: section [engine], keys directory, filename, command,
 * arguments, name. Pure: no file I/O (the caller reads the file and checks that
 * the executable exists), no globals.
 */
#ifndef OTEP_INI_H
#define OTEP_INI_H

#include <stddef.h>

/* What the .ini says, resolved. Owned by the struct: otep_ini_free(). */
struct otep_ini {
	char  *directory;   /* absolute when the .ini's folder was absolute */
	char  *filename;    /* the executable, directory/filename */
	char **argv;        /* command then arguments, NULL-terminated */
	char  *name;        /* the name shown to users: name, else filename */
	int    named;       /* 1 when the .ini gives a name */
};

/* Parses text, the contents of an .ini file that lives in folder ini_dir (a
 * relative directory is relative to it). 0, or -1 with the reason in err (out is
 * then empty). */
int  otep_ini_parse(const char *text, const char *ini_dir, struct otep_ini *out,
		    char *err, size_t errlen);
/* Frees what otep_ini_parse filled; safe on a zeroed or freed struct. */
void otep_ini_free(struct otep_ini *ini);

/* Splits an arguments value on blanks; a double-quoted part keeps its blanks
 * ("--book \"my book.txt\""). Appends to *argv (NULL-terminated, *n entries),
 * which the caller frees. 0, or -1 (unbalanced quote, no memory) with err. */
int  otep_ini_split(const char *s, char ***argv, size_t *n, char *err, size_t errlen);

/* Whether spec names an .ini file rather than a command: one word ending in ".ini". */
int  otep_ini_is_path(const char *spec);

#endif
