/*
 * session_io.h: the skeleton of a front-end session, shared by every protocol.
 * A struct session_io sits inside each session and owns its pair of bufferevents
 * (one socket, or stdin/stdout), its engine, and the plumbing every protocol needs
 * the same way:
 *   - input as a queue: the protocol says when it may take the next unit (ready);
 *   - bounded line reading, with over-long lines discarded and reported (lines mode),
 *     or raw access to the input buffer (raw mode, for framed protocols);
 *   - back-pressure: input pauses while more than max_buffer bytes of answers are
 *     unread, and resumes once half of them are gone;
 *   - idle time-out (not while an engine command is outstanding; idle_timeout_ms,
 *     or game_idle_timeout_ms while the protocol says a game is in progress), input EOF (finish
 *     the queued work, then close), I/O errors;
 *   - closing: flush what is queued, then fire the closed callback from an event of
 *     its own, so the owner may free the session inside it;
 *   - the engine (session_io_new): made from the listener's profile on first use
 *     and again after a failure dropped it, tagged with the session's log id, asked
 *     to stop by a timer at a search's time limit (unless its back end keeps the
 *     time itself: engine_ops.keeps_time), and freed first of all.
 * Every resumption goes through one event, so nothing re-enters a session from
 * inside an engine call.
 */
#ifndef BRIDGE_SESSION_IO_H
#define BRIDGE_SESSION_IO_H

#include <stddef.h>
#include <stdint.h>
#include "bridge/front.h"

/* After a flushed close, how long a client may take to see our FIN and hang up. */
#define SESSION_IO_LINGER_MS 2000

struct engine;
struct engine_profile;
struct engine_result;
struct hive_game;
struct live_game;
struct event;
struct event_base;
struct evbuffer;
struct bufferevent;

/* What a protocol plugs in; arg is the session. A static const table per protocol. */
struct session_io_ops {
	/* Whether the protocol may take the next input unit now (no engine command
	 * holds the queue). Required. */
	int   (*ready)(void *arg);
	/* Whether an engine command is outstanding: waiting for it is not idleness.
	 * NULL: whenever the session is not ready. */
	int   (*busy)(void *arg);
	/* Lines mode: one complete line, NUL-terminated, CR LF stripped, at most
	 * max_line bytes; the buffer is the session's to modify, not to keep. */
	void  (*line)(void *arg, char *line, size_t len);
	/* Lines mode: an over-long line was dropped (already logged): answer it. */
	void  (*too_long)(void *arg);
	/* Raw mode (line == NULL): take what can be taken off in. 1: call again, 0: no
	 * more for now, -1: stop (the session called session_io_finish). */
	int   (*input)(void *arg, struct evbuffer *in);
	/* Optional: whether a game is in progress, so that a silence is measured against
	 * game_idle_timeout_ms rather than idle_timeout_ms. NULL: never. */
	int   (*in_game)(void *arg);
	/* Optional: the input ended and was all handled; the session closes next. */
	void  (*eof)(void *arg);
	/* Optional, stdio: the input ended with a command outstanding, which the session
	 * waits for before it ends; one that would never end is to be stopped now (may
	 * be called again). */
	void  (*eof_busy)(void *arg);
	/* Optional: the session is finishing (called by every session_io_finish that
	 * does something): stop what would write more. */
	void  (*finishing)(void *arg);
	/* Lines mode: max_line when the limits give none. */
	size_t max_line_default;
	/* Raw mode: bytes the input buffer may hold before reading from the peer stops. */
	size_t read_high;
	/* session_io_new: whether the engine is searching, which the stop timer then
	 * stops. NULL: whenever there is an engine. */
	int   (*searching)(void *arg);
};

/* Embedded in a session; the fields are readable, only session_io_* writes them. */
struct session_io {
	struct bufferevent    *in;
	struct bufferevent    *out;          /* == in for a socket */
	unsigned               id;           /* for the log */
	struct session_limits  lim;          /* with the defaults filled in */
	const struct session_io_ops *ops;
	void                  *arg;
	front_closed_cb       *closed;
	void                  *closed_arg;

	int                    discarding;   /* inside an over-long line */
	size_t                 discarded;
	int                    eof;          /* input ended */
	int                    paused;       /* output over max_buffer */
	int                    finishing;    /* flush, then close */
	int                    closed_fired;
	int                    lingering;    /* closing: answers out, waiting for the hang-up */
	uint64_t               last_input_ms; /* now_ms() of the last bytes read */

	struct event          *process_ev;   /* resume taking input */
	struct event          *close_ev;     /* fire the closed callback */
	struct event          *send_ev;      /* send what was queued without a flush */
	struct event          *acked_ev;     /* session_io_shutdown's linger: polls the kernel */
	int                    until_acked;  /* session_io_shutdown: linger until all acknowledged */
	int                    send_queued;  /* send_ev is active */

	/* The engine side (session_io_new). */
	struct event_base     *base;
	const struct engine_profile *profile; /* NULL: the built-in engine */
	struct engine         *engine;       /* NULL until session_io_engine, owned */
	struct event          *stop_ev;      /* a search's time limit (session_io_arm_stop) */
	struct live_game      *lg;           /* the game on the web page (session_io_live), or NULL */
};

/* Sets io up over in/out (the same one for TCP) and starts reading. Takes ownership
 * of in and out, also on failure; call session_io_free either way. 0, or -1 (out of
 * memory) with the reason logged. */
int  session_io_init(struct session_io *io, struct event_base *base, struct bufferevent *in,
		     struct bufferevent *out, unsigned id, const struct session_limits *lim,
		     const struct session_io_ops *ops, void *arg, front_closed_cb *closed,
		     void *closed_arg);

/* A front end's session: size zeroed bytes whose first member is their struct
 * session_io, set up by session_io_init with the session as the hooks' arg, then the
 * engine side for profile (kept, not copied) with its stop timer, and "TITLE session
 * opened" in the log. Takes ownership of in and out, also on failure. The session,
 * or NULL (out of memory; nothing is left). */
void *session_io_new(size_t size, struct event_base *base, struct bufferevent *in,
		     struct bufferevent *out, unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, const struct session_io_ops *ops,
		     front_closed_cb *closed, void *closed_arg);

/* The session's engine, made on first use and again after session_io_drop_engine;
 * NULL with the reason in err if it cannot be made. */
struct engine *session_io_engine(struct session_io *io, char *err, size_t errlen);

/* The engine did not start (why): with lim.start_failed set, records why there
 * and ends the session at once, returning 1; otherwise returns 0 (report it). */
int  session_io_start_failed(struct session_io *io, const char *why);

/* Makes the session's engine and starts it, started(arg, result) to answer (from
 * the engine's event, never from inside this call). 0: the start is under way. 1:
 * it did not start and the session ends (session_io_start_failed). -1: it did not
 * start, the reason in err, which the front end reports to its client. */
int  session_io_start(struct session_io *io,
		      void (*started)(void *arg, const struct engine_result *r), void *arg,
		      char *err, size_t errlen);

/* Frees the engine now (no callback of it fires afterwards); the next use makes one. */
void session_io_drop_engine(struct session_io *io);

/* Asks the engine to stop in ms unless the search ends first (evtimer_del stop_ev),
 * or unless its back end keeps the time itself (engine_ops.keeps_time). */
void session_io_arm_stop(struct session_io *io, uint64_t ms);

/* The session's canonical game g changed (a new game, a move, an undo): its record
 * on the web page follows (live_report: kind is the protocol's name, client the
 * client's side, white, against the session's engine). */
void session_io_live(struct session_io *io, const char *kind, const char *client,
		     const struct hive_game *g);
/* The session is done with its game (a new one comes): the next session_io_live
 * opens a new record. */
void session_io_live_end(struct session_io *io);

/* Frees the engine first (it stops and joins any search and calls nothing after),
 * then the game on the web page, the bufferevents and events; safe on a zeroed or
 * half-initialised io. */
void session_io_free(struct session_io *io);

/* Frees a pair of bufferevents no session_io owns yet (a session that failed early). */
void session_io_release(struct bufferevent *in, struct bufferevent *out);

/* Runs the input loop again from the top of the event loop (after an engine answer). */
void session_io_schedule(struct session_io *io);

/* Ends the session: with flush, once what is queued for the client is sent; a
 * socket whose client has not acknowledged all of it yet then half-closes and
 * lingers, dropping what the client still sends, until the client hangs up or
 * SESSION_IO_LINGER_MS pass (a close with unread input would reset the connection
 * and throw away what the kernel still holds). The closed callback then fires once,
 * from its own event. */
void session_io_finish(struct session_io *io, int flush);

/* The daemon stops: session_io_finish(io, 1), whose linger then lasts until the
 * client has acknowledged everything sent (or hangs up), not SESSION_IO_LINGER_MS:
 * a client that stopped reading keeps its answers for the whole shutdown grace,
 * which bounds the wait. */
void session_io_shutdown(struct session_io *io);

/* Queues bytes for the client as they are (the caller logs them). */
void session_io_write(struct session_io *io, const void *data, size_t len);

/* Queues one line and its newline for the client and traces it in the log. */
void session_io_write_line(struct session_io *io, const char *line, size_t len);

/* Sends what is queued now rather than a loop iteration later (end of an answer). */
void session_io_flush(struct session_io *io);

/* Whether more than max_buffer bytes of answers wait for the client. */
int  session_io_output_full(const struct session_io *io);

#endif
