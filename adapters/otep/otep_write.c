/*
 * otep_write.c: the writer of OTEP lines with Hive contents (otep_codec.h). It checks
 * what the parser (otep_codec.c) checks, with the same validators, so that every line
 * it makes reads back as the same message.
 */
#include "adapters/otep/otep_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bridge/span.h"
#include "core/errbuf.h"

static void w_str(struct span_writer *w, const char *s)
{
	span_put(w, s, strlen(s));
}

static void w_fail(struct span_writer *w, const char *why)
{
	if (w->error == NULL)
		w->error = why;
}

/* " <token>": Hive text with each space written '_'. */
static void w_hive(struct span_writer *w, const char *s, const char *bad)
{
	if (s == NULL || s[0] == '\0' || strpbrk(s, "_|\t\r\n\v\f") != NULL) {
		w_fail(w, bad);
		return;
	}
	w_str(w, " ");
	for (const char *c = s; *c; c++)
		span_put(w, *c == ' ' ? "_" : c, 1);
}

/* The message's Hive text as w_hive writes it, after the check the parser makes
 * (need: the reason when it fails it). */
static void w_checked(struct span_writer *w, const char *s, int (*check)(const char *, char *, size_t),
		      const char *need, const char *bad)
{
	if (s == NULL || check(s, NULL, 0) < 0)
		w_fail(w, need);
	w_hive(w, s, bad);
}

static void w_int(struct span_writer *w, int64_t v)
{
	char num[32];
	snprintf(num, sizeof num, " %" PRId64, v);
	w_str(w, num);
}

static void w_moves(struct span_writer *w, const struct otep_moves *ln, int allow_empty)
{
	if (ln->n == 0) {
		if (allow_empty)
			w_str(w, " -");
		else
			w_fail(w, "an analysis move list needs a move");
		return;
	}
	if (ln->n > OTEP_LIST_MAX) {
		w_fail(w, "too many moves in a move list");
		return;
	}
	for (size_t i = 0; i < ln->n; i++) {
		const char *mv = ln->moves[i];
		if (mv == NULL || otep_movestring_check(mv, NULL, 0) < 0 ||
		    strpbrk(mv, "_|\t\r\n\v\f") != NULL) {
			w_fail(w, "a move list item is not a MoveString");
			return;
		}
		w_str(w, i ? "|" : " ");
		for (const char *c = mv; *c; c++)
			span_put(w, *c == ' ' ? "_" : c, 1);
	}
}

/* " <text>": free text, leading blanks dropped, NUL/CR/LF impossible (they become
 * spaces), cut to fit without splitting a UTF-8 character. */
static void w_text(struct span_writer *w, const char *s)
{
	if (w->error != NULL || s == NULL)
		return;
	while (span_blank(*s))
		s++;
	if (*s == '\0')
		return;
	if (w->len + 2 >= w->cap) {
		w_fail(w, "the line does not fit the buffer");
		return;
	}
	w->buf[w->len++] = ' ';
	size_t room = w->cap - w->len - 1, n = strlen(s);
	if (n > room) {
		n = room;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++)
		w->buf[w->len++] = (s[i] == '\r' || s[i] == '\n') ? ' ' : s[i];
	w->buf[w->len] = '\0';
}

static int w_clock(struct span_writer *w, const struct otep_clock *c)
{
	for (int s = 0; s < 2; s++) {
		if (c->ms[s] < 0 || c->ms[s] > OTEP_MS_MAX)
			return w_fail(w, "clock milliseconds out of range"), -1;
		w_int(w, c->ms[s]);
		if (c->in_overtime[s]) {
			if (!c->has_overtime)
				return w_fail(w, "'*' (in overtime) needs the overtime fields"), -1;
			w_str(w, "*");
		}
	}
	if (!c->has_overtime)
		return 0;
	if (c->overtime_s < 0 || c->overtime_s > OTEP_MS_MAX / 1000 || c->overtimes[0] < 0 ||
	    c->overtimes[0] > 1000000 || c->overtimes[1] < 0 || c->overtimes[1] > 1000000)
		return w_fail(w, "clock overtime fields out of range"), -1;
	w_int(w, c->overtime_s);
	w_int(w, c->overtimes[0]);
	w_int(w, c->overtimes[1]);
	return 0;
}

int otep_msg_format(const struct otep_msg *m, char *buf, size_t len, char *err, size_t errlen)
{
	struct span_writer w = { buf, len, 0, NULL };
	const char *name = otep_cmd_name(m->cmd);

	if (len > 0)
		buf[0] = '\0';
	if (name == NULL) {
		w_fail(&w, "unknown command");
		goto out;
	}
	if (!otep_cmd_sent_by(m->cmd, m->from)) {
		w_fail(&w, "this command does not travel in that direction");
		goto out;
	}
	w_str(&w, name);
	switch (m->cmd) {
	case OTEP_HELLO:
	case OTEP_GOODBYE:
		break;
	case OTEP_SIMPLE_MOVES:
		w_str(&w, m->flag ? " on" : " off");
		break;
	case OTEP_RULES:
		if (m->text == NULL && m->from == OTEP_FROM_ENGINE)
			break;
		w_checked(&w, m->text, otep_gametype_check, "rules needs a GameTypeString",
			  "rules needs a GameTypeString");
		break;
	case OTEP_POSITION:
	case OTEP_MOVE:
	case OTEP_OPPONENT_MOVE:
		if (m->cmd == OTEP_POSITION && m->text == NULL && m->from == OTEP_FROM_ENGINE)
			break;
		if (m->cmd == OTEP_OPPONENT_MOVE) {
			if (m->nlines != 1 || m->lines == NULL) {
				w_fail(&w, "opponent-move needs one move list");
				break;
			}
			w_moves(&w, &m->lines[0], 1);
		}
		if (m->cmd == OTEP_MOVE && m->from == OTEP_FROM_ENGINE) {
			w_checked(&w, m->text, otep_movestring_check, "move needs a MoveString",
				  "move needs a MoveString without '_', '|' or control bytes");
			break;
		}
		w_checked(&w, m->text, otep_gamestring_check, "a GameString is needed",
			  "a GameString cannot hold '_', '|' or control bytes");
		break;
	case OTEP_SIDE:
	case OTEP_PLAY:
		if (m->cmd == OTEP_SIDE && !m->has_side && m->from == OTEP_FROM_ENGINE)
			break;
		if (m->side != OTEP_WHITE && m->side != OTEP_BLACK)
			w_fail(&w, "the side is white or black");
		w_str(&w, " ");
		w_str(&w, otep_side_name(m->side));
		break;
	case OTEP_CLOCK:
		if (!m->has_clock) {
			if (m->from == OTEP_FROM_HOST)
				w_fail(&w, "the host's clock needs the times");
			break;
		}
		w_clock(&w, &m->clock);
		break;
	case OTEP_ANALYZE:
		if (m->number < 1 || m->number > OTEP_ANALYSIS_MAX || m->seconds < 0 ||
		    m->seconds > 86400 * 365)
			w_fail(&w, "analyze: number or seconds out of range");
		w_int(&w, m->number);
		w_int(&w, m->seconds);
		break;
	case OTEP_ANALYSIS:
		if (m->nlines < 1 || m->nlines > OTEP_ANALYSIS_MAX || m->lines == NULL) {
			w_fail(&w, "analysis needs 1 to OTEP_ANALYSIS_MAX move lists");
			break;
		}
		w_int(&w, (int64_t)m->nlines);
		for (size_t i = 0; i < m->nlines; i++) {
			char ev[32];
			if (m->lines[i].eval_cp < -OTEP_EVAL_MAX || m->lines[i].eval_cp > OTEP_EVAL_MAX) {
				w_fail(&w, "evaluation out of range");
				break;
			}
			w_moves(&w, &m->lines[i], 0);
			ev[0] = ' ';
			otep_eval_format(ev + 1, sizeof ev - 1, m->lines[i].eval_cp);
			w_str(&w, ev);
		}
		break;
	case OTEP_FINISH:
		if (m->code < 0 || m->code > 3)
			w_fail(&w, "finish code out of range (0 to 3)");
		w_int(&w, m->code);
		break;
	case OTEP_ERROR:
		if (m->from == OTEP_FROM_HOST ? (m->code < 1 || m->code > 4) : (m->code < -1 || m->code > 0))
			w_fail(&w, "error code not sent in that direction");
		w_int(&w, m->code);
		w_text(&w, m->text);
		break;
	case OTEP_STATUS:
		w_text(&w, m->text);
		break;
	case OTEP_NCMDS:
		break;
	}
out:
	if (w.error != NULL) {
		errbuf_set(err, errlen, "%s", w.error);
		if (len > 0)
			buf[0] = '\0';
		return -1;
	}
	return (int)w.len;
}

/* ---- one writer per line -------------------------------------------------------- */

static int fmt(char *buf, size_t len, const struct otep_msg *m)
{
	return otep_msg_format(m, buf, len, NULL, 0);
}

int otep_format_hello(char *buf, size_t len)
{
	struct otep_msg m = { .cmd = OTEP_HELLO, .from = OTEP_FROM_ENGINE };
	return fmt(buf, len, &m);
}

int otep_format_simple_moves(char *buf, size_t len, int on)
{
	struct otep_msg m = { .cmd = OTEP_SIMPLE_MOVES, .from = OTEP_FROM_ENGINE, .flag = !!on };
	return fmt(buf, len, &m);
}

int otep_format_rules(char *buf, size_t len, const char *type)
{
	struct otep_msg m = { .cmd = OTEP_RULES, .text = type,
			      .from = type ? OTEP_FROM_HOST : OTEP_FROM_ENGINE };
	return fmt(buf, len, &m);
}

int otep_format_position(char *buf, size_t len, const char *gamestring)
{
	struct otep_msg m = { .cmd = OTEP_POSITION, .text = gamestring,
			      .from = gamestring ? OTEP_FROM_HOST : OTEP_FROM_ENGINE };
	return fmt(buf, len, &m);
}

int otep_format_side(char *buf, size_t len, enum otep_side side)
{
	struct otep_msg m = { .cmd = OTEP_SIDE, .from = OTEP_FROM_HOST, .side = side, .has_side = 1 };
	return fmt(buf, len, &m);
}

int otep_format_play(char *buf, size_t len, enum otep_side side)
{
	struct otep_msg m = { .cmd = OTEP_PLAY, .from = OTEP_FROM_HOST, .side = side, .has_side = 1 };
	return fmt(buf, len, &m);
}

int otep_format_clock(char *buf, size_t len, const struct otep_clock *c)
{
	struct otep_msg m = { .cmd = OTEP_CLOCK, .from = OTEP_FROM_HOST, .has_clock = 1, .clock = *c };
	return fmt(buf, len, &m);
}

int otep_format_analyze(char *buf, size_t len, int number, int seconds)
{
	struct otep_msg m = { .cmd = OTEP_ANALYZE, .from = OTEP_FROM_HOST, .number = number,
			      .seconds = seconds };
	return fmt(buf, len, &m);
}

int otep_format_analysis(char *buf, size_t len, const struct otep_moves *lines, size_t n)
{
	struct otep_msg m = { .cmd = OTEP_ANALYSIS, .from = OTEP_FROM_ENGINE,
			      .lines = (struct otep_moves *)lines, .nlines = n };
	return fmt(buf, len, &m);
}

int otep_format_move(char *buf, size_t len, const char *movestring)
{
	struct otep_msg m = { .cmd = OTEP_MOVE, .from = OTEP_FROM_ENGINE, .text = movestring };
	return fmt(buf, len, &m);
}

int otep_format_move_result(char *buf, size_t len, const char *gamestring)
{
	struct otep_msg m = { .cmd = OTEP_MOVE, .from = OTEP_FROM_HOST, .text = gamestring };
	return fmt(buf, len, &m);
}

int otep_format_error(char *buf, size_t len, enum otep_from from, int code, const char *message)
{
	struct otep_msg m = { .cmd = OTEP_ERROR, .from = from, .code = code, .text = message };
	return fmt(buf, len, &m);
}

int otep_format_opponent_move(char *buf, size_t len, const char *const *moves, size_t n,
			      const char *gamestring)
{
	struct otep_moves ln = { moves, n, 0 };
	struct otep_msg m = { .cmd = OTEP_OPPONENT_MOVE, .from = OTEP_FROM_HOST, .lines = &ln,
			      .nlines = 1, .text = gamestring };
	return fmt(buf, len, &m);
}

int otep_format_finish(char *buf, size_t len, enum otep_finish code)
{
	struct otep_msg m = { .cmd = OTEP_FINISH, .from = OTEP_FROM_HOST, .code = (int)code };
	return fmt(buf, len, &m);
}

int otep_format_goodbye(char *buf, size_t len)
{
	struct otep_msg m = { .cmd = OTEP_GOODBYE, .from = OTEP_FROM_HOST };
	return fmt(buf, len, &m);
}

int otep_format_status(char *buf, size_t len, const char *text)
{
	struct otep_msg m = { .cmd = OTEP_STATUS, .from = OTEP_FROM_ENGINE, .text = text };
	return fmt(buf, len, &m);
}
