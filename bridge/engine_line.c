/*
 * engine_line.c: the job, the deferred delivery and the child slot that every
 * line-protocol back end shares (see engine_line.h).
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bridge/config.h"
#include "bridge/engine_child.h"
#include "bridge/engine_line.h"
#include "bridge/log.h"
#include "bridge/util.h"

static void engine_line_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct engine_line *l = arg;

	if (l->reply.ready && l->ops->delivering)
		l->ops->delivering(l->e.priv);
	if (!engine_reply_deliver(&l->reply))
		l->ops->advance(l->e.priv);
}

void *engine_line_alloc(const struct engine_profile *p, size_t size, char **cause)
{
	void *priv;

	if (!p->argv || !p->argv[0]) {
		*cause = xasprintf("engine %s: no command", p->name);
		return NULL;
	}
	if (!(priv = calloc(1, size)))
		*cause = xasprintf("out of memory");
	return priv;
}

int engine_line_init(struct engine_line *l, struct event_base *base, const struct engine_profile *p,
		     const struct engine_ops *eops, void *priv, const struct engine_line_ops *ops,
		     size_t max_line, size_t line_slack, const struct engine_child_ops *cops,
		     char **cause)
{
	l->e.ops = eops;
	l->e.base = base;
	l->e.profile = p;
	l->e.priv = priv;
	l->ops = ops;
	hive_game_init(&l->want, 0);
	l->child = engine_child_new(base, p->name, max_line, line_slack, cops, priv);
	l->kick = event_new(base, -1, 0, engine_line_kick_cb, l);
	if (!l->child || !l->kick) {
		*cause = xasprintf("out of memory");
		return -1;
	}
	return 0;
}

void engine_line_release(struct engine_line *l, const char *farewell)
{
	if (l->child)
		engine_child_close(l->child, farewell, l->e.profile->stop_timeout_ms);
	engine_child_free(l->child);
	l->child = NULL;
	if (l->kick)
		event_free(l->kick);
	l->kick = NULL;
	free(l->opt_name);
	free(l->opt_value);
	l->opt_name = l->opt_value = NULL;
	engine_reply_free(&l->reply);
	hive_game_free(&l->want);
}

int engine_line_busy(const struct engine_line *l)
{
	return l->job != ENGINE_LINE_NONE || l->reply.ready;
}

int engine_line_begin(struct engine_line *l, enum engine_line_job job, engine_done_cb *done, void *arg)
{
	if (engine_line_busy(l))
		return -1;     /* one command at a time */
	l->job = job;
	l->done = done;
	l->arg = arg;
	l->stop_requested = 0;
	engine_line_kick(l);
	return 0;
}

int engine_line_go(struct engine_line *l, const struct hive_game *g, const struct engine_limits *lim,
		   engine_info_cb *info, engine_done_cb *done, void *arg)
{
	if (engine_line_busy(l))
		return -1;
	hive_game_free(&l->want);
	hive_game_init(&l->want, g->type);
	if (hive_game_copy(&l->want, g) != HIVE_OK)
		return -1;
	l->limits = *lim;
	l->go_ms = now_ms();
	l->info = info;
	return engine_line_begin(l, ENGINE_LINE_GO, done, arg);
}

/* The engine_line whose engine e is (its first member). */
static struct engine_line *engine_line_of(struct engine *e)
{
	return (struct engine_line *)e;
}

int engine_line_start(struct engine *e, engine_done_cb *done, void *arg)
{
	return engine_line_begin(engine_line_of(e), ENGINE_LINE_START, done, arg);
}

int engine_line_options(struct engine *e, int argc, const char **argv, engine_done_cb *done,
			void *arg)
{
	struct engine_line *l = engine_line_of(e);

	if (engine_line_busy(l))
		return -1;
	if (!(argc == 0 || (argc == 2 && !strcmp(argv[0], "get")) ||
	      (argc == 3 && !strcmp(argv[0], "set"))))
		return -1;
	free(l->opt_name);
	free(l->opt_value);
	l->opt_name = argc >= 2 ? strdup(argv[1]) : NULL;
	l->opt_value = argc == 3 ? strdup(argv[2]) : NULL;
	if ((argc >= 2 && !l->opt_name) || (argc == 3 && !l->opt_value))
		return -1;
	l->opt_argc = argc;
	return engine_line_begin(l, ENGINE_LINE_OPTIONS, done, arg);
}

void engine_line_finish(struct engine_line *l, enum engine_status st, const char *msg,
			const struct hive_move *move, char **lines)
{
	engine_reply_set(&l->reply, l->done, l->arg, st, msg, move, lines);
	if (l->ops->ending)
		l->ops->ending(l->e.priv);
	l->job = ENGINE_LINE_NONE;
	l->done = NULL;
	l->info = NULL;
	l->arg = NULL;
	l->stop_requested = 0;
	free(l->opt_name);
	free(l->opt_value);
	l->opt_name = l->opt_value = NULL;
	engine_child_disarm(l->child);
	engine_line_kick(l);
}

void engine_line_finish_unknown_option(struct engine_line *l)
{
	char *msg = xasprintf("The option \"%s\" is not valid.", l->opt_name);

	engine_line_finish(l, ENGINE_ERROR, msg, NULL, NULL);
	free(msg);
}

void engine_line_kick(struct engine_line *l)
{
	event_active(l->kick, EV_TIMEOUT, 1);
}

void engine_line_note_ended(const struct engine_line *l, const char *what)
{
	if (l->job == ENGINE_LINE_NONE)
		log_note(l->log_id, "engine %s %s while idle; it restarts on next use",
			 l->e.profile->name, what);
}

void engine_line_ended(struct engine_line *l, const char *what, const char *tail)
{
	engine_line_note_ended(l, what);
	engine_child_fail(l->child, "%s%s", what, tail);
}

/* Whether the job may take its next step: not while the back end waits for an
 * answer, nor while the child is dying (its exit or the grace timer fails the job). */
static int engine_line_may_advance(const struct engine_line *l, int waiting)
{
	return l->job != ENGINE_LINE_NONE && !waiting && !engine_child_eof(l->child);
}

enum engine_line_next engine_line_next(struct engine_line *l, int waiting, int down, int idle)
{
	if (!engine_line_may_advance(l, waiting))
		return ENGINE_LINE_HOLD;
	if (down)
		return ENGINE_LINE_SPAWN;
	if (!idle)
		return ENGINE_LINE_HOLD;
	if (l->job == ENGINE_LINE_START) {
		engine_line_finish(l, ENGINE_OK, NULL, NULL, NULL);
		return ENGINE_LINE_HOLD;
	}
	return ENGINE_LINE_SEND;
}

void engine_line_set_log_id(struct engine *e, unsigned id)
{
	struct engine_line *l = engine_line_of(e);

	l->log_id = id;
	engine_child_set_log_id(l->child, id);
}
