/*
 * lobby_conf.c: the [listen] keys of a remote-play listener (see lobby_conf.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bridge/lobby/lobby_conf.h"
#include "bridge/referee.h"
#include "bridge/util.h"
#include "core/errbuf.h"
#include "core/game.h"

#define LOBBY_MAX_SECONDS 86400.0

void lobby_conf_clear(struct lobby_conf *lc)
{
	free(lc->house_engine);
	free(lc->results);
	free(lc->watch);
	lc->house_engine = lc->results = lc->watch = NULL;
}

/* Seconds (decimals allowed) in [0, one day] to milliseconds, up to end (NULL: the
 * whole string); zero allowed only if zero_ok. -1 if not. */
static int seconds_ms(const char *s, const char *end, int zero_ok, uint64_t *ms)
{
	char buf[32], *e;
	size_t n = end ? (size_t)(end - s) : strlen(s);

	if (n == 0 || n >= sizeof buf || ((*s < '0' || *s > '9') && *s != '.'))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	double v = strtod(buf, &e);
	if (errno || *e || !isfinite(v) || v < 0 || v > LOBBY_MAX_SECONDS || (v == 0 && !zero_ok))
		return -1;
	*ms = (uint64_t)ceil(v * 1000);
	return 0;
}

static void set_owned(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static int count_key(const char *k, const char *v, unsigned lo, unsigned hi, unsigned *out,
		     char *err, size_t errlen)
{
	unsigned long long n;
	if (parse_uint(v, lo, hi, &n) < 0)
		return errbuf_set(err, errlen, "%s must be %u..%u, not \"%s\"", k, lo, hi, v);
	*out = (unsigned)n;
	return 1;
}

int lobby_conf_key(struct lobby_conf *lc, const char *k, const char *v, char *err, size_t errlen)
{
	uint64_t ms;

	if (!strcmp(k, "wait_time") || !strcmp(k, "house_wait") || !strcmp(k, "grace")) {
		int zero_ok = k[0] == 'h';
		if (seconds_ms(v, NULL, zero_ok, &ms) < 0)
			return errbuf_set(err, errlen, "%s must be seconds in %s, 86400], not \"%s\"", k,
					 zero_ok ? "[0" : "(0", v);
		if (k[0] == 'w')
			lc->wait_ms = (unsigned)ms;
		else if (k[0] == 'h')
			lc->house_wait_ms = (unsigned)ms;
		else
			lc->grace_ms = (unsigned)ms;
		return 1;
	}
	if (!strcmp(k, "clock")) {
		const char *plus = strchr(v, '+');
		uint64_t base, inc = 0;
		if (seconds_ms(v, plus, 0, &base) < 0 || (plus && seconds_ms(plus + 1, NULL, 1, &inc) < 0))
			return errbuf_set(err, errlen, "clock must be SECONDS or SECONDS+INCREMENT, not \"%s\"", v);
		lc->clock_ms = base;
		lc->inc_ms = inc;
		lc->move_time_ms = 0;
		return 1;
	}
	if (!strcmp(k, "move_time")) {
		if (seconds_ms(v, NULL, 0, &ms) < 0)
			return errbuf_set(err, errlen, "move_time must be seconds in (0, 86400], not \"%s\"", v);
		lc->move_time_ms = ms;
		lc->clock_ms = lc->inc_ms = 0;
		return 1;
	}
	if (!strcmp(k, "house_engine")) {
		set_owned(&lc->house_engine, v);
		return 1;
	}
	if (!strcmp(k, "results")) {
		set_owned(&lc->results, v);
		return 1;
	}
	if (!strcmp(k, "hints")) {
		if (!strcasecmp(v, "yes") || !strcmp(v, "1") || !strcasecmp(v, "true"))
			lc->hints = 1;
		else if (!strcasecmp(v, "no") || !strcmp(v, "0") || !strcasecmp(v, "false"))
			lc->hints = 0;
		else 
			return errbuf_set(err, errlen, "hints must be yes or no, not \"%s\"", v);
		return 1;
	}
	if (!strcmp(k, "max_waiting"))
		return count_key(k, v, 1, 100000, &lc->max_waiting, err, errlen);
	if (!strcmp(k, "max_games"))
		return count_key(k, v, 1, 100000, &lc->max_games, err, errlen);
	if (!strcmp(k, "max_spectators"))
		return count_key(k, v, 1, 10000, &lc->max_spectators, err, errlen);
	if (!strcmp(k, "max_spectators_total"))
		return count_key(k, v, 1, 100000, &lc->max_spectators_total, err, errlen);
	if (!strcmp(k, "watch")) {
		set_owned(&lc->watch, v);
		return 1;
	}
	if (!strcmp(k, "game_type")) {
		if (hive_gametype_parse(v, &lc->game_type) != 0)
			return errbuf_set(err, errlen, "game_type must be a GameTypeString (Base, Base+MLP...), "
					  "not \"%s\"", v);
		return 1;
	}
	if (!strcmp(k, "max_plies"))
		return count_key(k, v, 0, 60000, &lc->max_plies, err, errlen);
	if (!strcmp(k, "repetition")) {
		/* Once is every position: 0 (never) or 2.. */
		if (count_key(k, v, 0, 1000, &lc->repetition, err, errlen) < 0 || lc->repetition == 1)
			return errbuf_set(err, errlen, "repetition must be 0 or 2..1000, not \"%s\"", v);
		return 1;
	}
	return 0;
}

/* Milliseconds as seconds, without trailing zeros: "600", "0.5". */
static void seconds_text(uint64_t ms, char *buf, unsigned len)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ms / 1000));
	else {
		snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ms / 1000),
			 (unsigned long long)(ms % 1000));
		char *e = buf + strlen(buf) - 1;
		while (*e == '0')
			*e-- = 0;
	}
}

void lobby_conf_time_control(const struct lobby_conf *lc, char *buf, unsigned len)
{
	char a[32], b[32];
	if (lc->move_time_ms) {
		seconds_text(lc->move_time_ms, a, sizeof a);
		snprintf(buf, len, "%s/move", a);
	} else {
		seconds_text(lc->clock_ms, a, sizeof a);
		seconds_text(lc->inc_ms, b, sizeof b);
		snprintf(buf, len, "%s+%s", a, b);
	}
}
