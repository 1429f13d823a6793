/*
 * engine_line.c: the child slot and the next step that every line-protocol back end
 * shares (see engine_line.h).
 */
#include <stdlib.h>

#include "bridge/config.h"
#include "bridge/engine_child.h"
#include "bridge/engine_line.h"
#include "bridge/log.h"
#include "core/errbuf.h"

void *engine_line_alloc(const struct engine_profile *p, size_t size, char *err, size_t errlen)
{
	void *priv;

	if (!p->argv || !p->argv[0]) {
		errbuf_set(err, errlen, "engine %s: no command", p->name);
		return NULL;
	}
	if (!(priv = calloc(1, size)))
		errbuf_set(err, errlen, "out of memory");
	return priv;
}

int engine_line_init(struct engine_line *l, struct event_base *base, const struct engine_profile *p,
		     const struct engine_ops *eops, void *priv, size_t max_line, size_t line_slack,
		     const struct engine_child_ops *cops, char *err, size_t errlen)
{
	if (engine_init(&l->e, base, p, eops, priv, err, errlen) < 0)
		return -1;
	if (!(l->child = engine_child_new(base, p->name, max_line, line_slack, cops, priv)))
		return errbuf_set(err, errlen, "out of memory");
	return 0;
}

void engine_line_release(struct engine_line *l, const char *farewell)
{
	if (l->child)
		engine_child_close(l->child, farewell, l->e.profile->stop_timeout_ms);
	engine_child_free(l->child);
	l->child = NULL;
	engine_release(&l->e);
}

void engine_line_note_ended(const struct engine_line *l, const char *what)
{
	if (engine_job_kind(&l->e) == ENGINE_JOB_NONE)
		log_note(l->log_id, "engine %s %s while idle; it restarts on next use",
			 l->e.profile->name, what);
}

void engine_line_ended(struct engine_line *l, const char *what, const char *tail)
{
	engine_line_note_ended(l, what);
	engine_child_fail(l->child, "%s%s", what, tail);
}

enum engine_line_next engine_line_next(struct engine_line *l, int waiting, int down, int idle)
{
	/* Not while the back end waits for an answer, nor while the child is dying (its
	 * exit or the grace timer fails the job). */
	if (engine_job_kind(&l->e) == ENGINE_JOB_NONE || waiting || engine_child_eof(l->child))
		return ENGINE_LINE_HOLD;
	if (down)
		return ENGINE_LINE_SPAWN;
	if (!idle)
		return ENGINE_LINE_HOLD;
	if (engine_job_kind(&l->e) == ENGINE_JOB_START) {
		engine_job_finish(&l->e, ENGINE_OK, NULL, NULL);
		return ENGINE_LINE_HOLD;
	}
	return ENGINE_LINE_SEND;
}

void engine_line_set_log_id(struct engine *e, unsigned id)
{
	struct engine_line *l = (struct engine_line *)e;

	l->log_id = id;
	engine_child_set_log_id(l->child, id);
}
