/*
 * errbuf.h: the one way a parser of ours explains a failure: a printf into the
 * caller's (char *err, size_t errlen) buffer, which may be NULL or empty.
 *
 * Pure library: no I/O, no globals.
 */
#ifndef HIVE_ERRBUF_H
#define HIVE_ERRBUF_H

#include <stddef.h>

/* Writes the reason into err (cut to errlen; nothing when err is NULL or errlen 0)
 * and returns -1, so that a parser can `return errbuf_set(err, errlen, ...)`. */
int errbuf_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
