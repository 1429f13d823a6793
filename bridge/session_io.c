/*
 * session_io.c: the skeleton of a front-end session (see session_io.h).
 */
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <stdint.h>
#include <time.h>
#ifdef __linux__
#include <linux/sockios.h>
#include <sys/ioctl.h>
#endif

#include "bridge/config.h"
#include "bridge/engine.h"
#include "bridge/live.h"
#include "bridge/log.h"
#include "bridge/session_io.h"
#include "bridge/util.h"
#include "core/errbuf.h"

#define SESSION_IO_MAX_BUFFER_DEFAULT ((size_t)1 << 20)
/* Read watermark slack over max_line: room for the CR LF of one maximal line. */
#define SESSION_IO_LINE_SLACK 64
/* session_io_shutdown's linger: how often it asks whether the client has everything. */
#define SESSION_IO_ACKED_POLL_MS 10

static int io_acked(const struct session_io *io);
static void io_linger(struct session_io *io);

static int io_ready(struct session_io *io)
{
	return !io->finishing && io->ops->ready(io->arg);
}

void session_io_schedule(struct session_io *io)
{
	event_active(io->process_ev, EV_READ, 0);
}

int session_io_start_failed(struct session_io *io, const char *why)
{
	if (!io->lim.start_failed)
		return 0;
	free(*io->lim.start_failed);
	*io->lim.start_failed = xstrdup(why && *why ? why : "the engine did not start");
	log_note(io->id, "engine did not start: %s: ending the session", why ? why : "?");
	session_io_finish(io, 0);
	return 1;
}

int session_io_start(struct session_io *io, engine_done_cb *started, void *arg, char *err,
		     size_t errlen)
{
	if (session_io_engine(io, err, errlen) && engine_start(io->engine, started, arg) == 0)
		return 0;
	if (io->engine)
		errbuf_set(err, errlen, "the engine did not start");
	return session_io_start_failed(io, err) ? 1 : -1;
}

void session_io_finish(struct session_io *io, int flush)
{
	if (io->finishing && flush)
		return;
	io->finishing = 1;
	bufferevent_disable(io->in, EV_READ);
	if (io->ops->finishing)
		io->ops->finishing(io->arg);
	size_t queued = evbuffer_get_length(bufferevent_get_output(io->out));
	if (!flush || (queued == 0 && io_acked(io))) {
		event_active(io->close_ev, EV_READ, 0);
	} else if (queued > 0) {
		/* The write callback fires once the output is empty. */
		bufferevent_setwatermark(io->out, EV_WRITE, 0, 0);
		bufferevent_enable(io->out, EV_WRITE);
	} else {
		/* Sent (a flush took it all) but not yet with the client: the kernel holds
		 * it, and a close with unread input would throw it away. */
		io_linger(io);
	}
}

void session_io_shutdown(struct session_io *io)
{
	io->until_acked = 1;
	session_io_finish(io, 1);
}

/* The output's EV_WRITE stays off while it is empty (bev_send): what is queued goes
 * out at session_io_flush, or else from send_ev once the callbacks of this turn of
 * the loop are done, as the bufferevent would have sent it. */
static void io_queued(struct session_io *io)
{
	if (!io->send_queued && !(bufferevent_get_enabled(io->out) & EV_WRITE)) {
		io->send_queued = 1;
		event_active(io->send_ev, EV_WRITE, 0);
	}
}

void session_io_write(struct session_io *io, const void *data, size_t len)
{
	evbuffer_add(bufferevent_get_output(io->out), data, len);
	io_queued(io);
}

void session_io_write_line(struct session_io *io, const char *line, size_t len)
{
	struct evbuffer *o = bufferevent_get_output(io->out);
	char buf[256];
	if (len < sizeof buf) {
		/* The usual short line: one add, not two. */
		memcpy(buf, line, len);
		buf[len] = '\n';
		evbuffer_add(o, buf, len + 1);
	} else {
		evbuffer_add(o, line, len);
		evbuffer_add(o, "\n", 1);
	}
	log_proto(io->id, LOG_CLIENT_OUT, line, len);
	io_queued(io);
}

static void io_sent(struct session_io *io);

void session_io_flush(struct session_io *io)
{
	bev_send(io->out);
	io_sent(io);
}

int session_io_output_full(const struct session_io *io)
{
	return evbuffer_get_length(bufferevent_get_output(io->out)) > io->lim.max_buffer;
}

static void answer_too_long(struct session_io *io)
{
	log_note(io->id, "client line too long: %zu bytes discarded", io->discarded);
	io->ops->too_long(io->arg);
	io->discarding = 0;
	io->discarded = 0;
}

/* Takes the next complete line off the input, handling over-long ones. Returns the
 * NUL-terminated line in small (of small_len bytes) if it fits, else malloc'd (the
 * caller frees what is not small), or NULL when none is ready. */
static char *next_line(struct session_io *io, size_t *lenp, char *small, size_t small_len)
{
	struct evbuffer *inb = bufferevent_get_input(io->in);
	size_t max = io->lim.max_line;

	for (;;) {
		size_t avail = evbuffer_get_length(inb);
		struct evbuffer_ptr eol = evbuffer_search(inb, "\n", 1, NULL);

		if (io->discarding) {
			if (eol.pos < 0) {
				io->discarded += avail;
				evbuffer_drain(inb, avail);
				if (io->eof)
					answer_too_long(io);
				return NULL;
			}
			io->discarded += (size_t)eol.pos;
			evbuffer_drain(inb, (size_t)eol.pos + 1);
			answer_too_long(io);
			if (!io_ready(io))
				return NULL;
			continue;
		}
		size_t len;
		int has_nl = eol.pos >= 0;
		if (has_nl) {
			len = (size_t)eol.pos;
		} else if (avail > max + 1) {
			/* No newline in sight and already too long: drop it as it comes. */
			io->discarding = 1;
			continue;
		} else if (io->eof && avail > 0) {
			len = avail;      /* a last line without its newline */
		} else {
			return NULL;
		}
		size_t take = len + (size_t)has_nl;
		if (len > max + 1) {
			/* Too long even with a CR: never copied, just dropped. */
			evbuffer_drain(inb, take);
			io->discarded = len;
			answer_too_long(io);
			if (!io_ready(io))
				return NULL;
			continue;
		}
		/* With its newline, overwritten by the NUL: one removal, not two. */
		char *line = take < small_len ? small : malloc(take + 1);
		if (!line)
			return NULL;
		evbuffer_remove(inb, line, take);
		if (len && line[len - 1] == '\r')
			len--;
		line[len] = 0;
		if (len > max) {
			if (line != small)
				free(line);
			io->discarded = len;
			answer_too_long(io);
			if (!io_ready(io))
				return NULL;
			continue;
		}
		*lenp = len;
		return line;
	}
}

/* The input loop: one unit at a time while the protocol is ready for it. */
static void io_process(struct session_io *io)
{
	struct evbuffer *inb = bufferevent_get_input(io->in);

	while (io_ready(io)) {
		if (session_io_output_full(io)) {
			/* Back-pressure: read no more until the client takes its answers. */
			if (!io->paused) {
				io->paused = 1;
				bufferevent_disable(io->in, EV_READ);
				log_note(io->id, "output over %zu bytes: input paused", io->lim.max_buffer);
			}
			return;
		}
		if (io->ops->line) {
			size_t len;
			char small[256];
			char *line = next_line(io, &len, small, sizeof small);
			if (!line)
				break;
			io->ops->line(io->arg, line, len);
			if (line != small)
				free(line);
		} else if (io->ops->input(io->arg, inb) <= 0) {
			break;
		}
	}
	/* A socket client that left while work it asked for is outstanding is gone:
	 * the work stops now and everything it held is freed with the session (the
	 * stdio modes, whose input is a pipe, finish their queued commands). */
	if (io->eof && io->in == io->out && !io->finishing &&
	    (io->ops->busy ? io->ops->busy(io->arg) : !io->ops->ready(io->arg))) {
		log_note(io->id, "client gone with a command outstanding: stopping it");
		session_io_finish(io, 0);
		return;
	}
	/* Input closed and fully handled: the session ends once its answers are out
	 * (on stdio, once the command in flight is answered too: a search that lets
	 * ping or stop through counts as ready, yet its answer is still owed). */
	if (io_ready(io) && io->eof && !io->discarding && evbuffer_get_length(inb) == 0 &&
	    io->in != io->out && io->ops->busy && io->ops->busy(io->arg)) {
		if (io->ops->eof_busy)
			io->ops->eof_busy(io->arg);
		return;
	}
	if (io_ready(io) && io->eof && !io->discarding && evbuffer_get_length(inb) == 0) {
		if (io->ops->eof)
			io->ops->eof(io->arg);
		session_io_finish(io, 1);
	}
}

static void process_event(evutil_socket_t fd, short what, void *arg)
{
	io_process(arg);
}

static void close_event(evutil_socket_t fd, short what, void *arg)
{
	struct session_io *io = arg;
	if (io->closed_fired)
		return;
	io->closed_fired = 1;
	if (io->closed)
		io->closed(io->closed_arg);   /* may free the session, io with it */
}

/* Whether the client's side of a socket acknowledged every byte (and the FIN) sent,
 * so that a reset no longer takes anything from it; yes where it cannot be told
 * (stdio, no SIOCOUTQ). */
static int io_acked(const struct session_io *io)
{
	evutil_socket_t fd = io->in == io->out ? bufferevent_getfd(io->in) : -1;
	int queued = 0;
#ifdef SIOCOUTQ
	if (fd >= 0 && ioctl(fd, SIOCOUTQ, &queued) < 0)
		queued = 0;
#endif
	return queued == 0;
}

/* session_io_shutdown's linger: closes once the client has everything. */
static void acked_event(evutil_socket_t fd, short what, void *arg)
{
	struct session_io *io = arg;
	if (io_acked(io)) {
		event_del(io->acked_ev);
		event_active(io->close_ev, EV_READ, 0);
	}
}

/* The answers are out: half-close a socket and drop what the client still sends
 * until it hangs up (or the linger ends), so that closing with unread input never
 * resets the connection before the client has read them. After session_io_shutdown
 * the linger ends once the kernel holds nothing the client has not acknowledged
 * instead: a client that stopped reading keeps its answers for as long as the
 * server's shutdown grace lasts. */
static void io_linger(struct session_io *io)
{
	struct timeval tv = { SESSION_IO_LINGER_MS / 1000, (SESSION_IO_LINGER_MS % 1000) * 1000 };
	struct timeval poll = { 0, SESSION_IO_ACKED_POLL_MS * 1000 };
	evutil_socket_t fd = io->in == io->out ? bufferevent_getfd(io->in) : -1;

	if (io->lingering)
		return;
	if (fd < 0 || io->eof || shutdown(fd, SHUT_WR) < 0) {
		event_active(io->close_ev, EV_READ, 0);
		return;
	}
	io->lingering = 1;
	/* Nothing more goes out; a half-closed socket polls writable for good. */
	bufferevent_disable(io->out, EV_WRITE);
	evbuffer_drain(bufferevent_get_input(io->in), evbuffer_get_length(bufferevent_get_input(io->in)));
	bufferevent_set_timeouts(io->in, NULL, NULL);
	bufferevent_setwatermark(io->in, EV_READ, 0, 0);
	bufferevent_enable(io->in, EV_READ);
	if (io->until_acked)
		event_add(io->acked_ev, &poll);
	else
		event_add(io->close_ev, &tv);
}

static void read_cb(struct bufferevent *bev, void *arg)
{
	struct session_io *io = arg;
	if (io->lingering) {
		evbuffer_drain(bufferevent_get_input(bev), evbuffer_get_length(bufferevent_get_input(bev)));
		return;
	}
	io->last_input_ms = (uint64_t)now_ms();
	io_process(io);
}

static struct timeval ms_timeval(unsigned ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	return tv;
}

/* The read time-out that fires first: the shorter of the two non-zero limits. */
static unsigned idle_first_ms(const struct session_limits *lim)
{
	unsigned a = lim->idle_timeout_ms, b = lim->game_idle_timeout_ms;
	return !a ? b : !b ? a : a < b ? a : b;
}

/* The read time-out fired: close if the session has been silent for longer than the
 * limit that applies now, else wait out the rest. */
static void idle_check(struct session_io *io)
{
	if (io->ops->busy ? io->ops->busy(io->arg) : !io->ops->ready(io->arg)) {
		/* Waiting for the engine is not idleness. */
		bufferevent_enable(io->in, EV_READ);
		return;
	}
	int game = io->ops->in_game && io->ops->in_game(io->arg);
	unsigned limit = game ? io->lim.game_idle_timeout_ms : io->lim.idle_timeout_ms;
	uint64_t silent = (uint64_t)now_ms() - io->last_input_ms;
	if (limit && silent >= limit) {
		log_note(io->id, "idle time-out: %llu ms without input%s", (unsigned long long)silent,
			 game ? " in a game" : "");
		session_io_finish(io, 1);
		return;
	}
	/* Not yet (or never): look again when the applicable limit could be reached. */
	unsigned wait = limit ? limit - (unsigned)silent : idle_first_ms(&io->lim);
	struct timeval tv = ms_timeval(wait ? wait : 1);
	bufferevent_set_timeouts(io->in, &tv, NULL);
	bufferevent_enable(io->in, EV_READ);
}

/* Answers went out (from the bufferevent or straight): input paused for them resumes
 * once half of them are gone. */
static void io_sent(struct session_io *io)
{
	if (io->paused && !io->finishing &&
	    evbuffer_get_length(bufferevent_get_output(io->out)) <= io->lim.max_buffer / 2) {
		io->paused = 0;
		if (!io->eof)
			bufferevent_enable(io->in, EV_READ);
		session_io_schedule(io);
	}
}

static void send_event(evutil_socket_t fd, short what, void *arg)
{
	struct session_io *io = arg;
	io->send_queued = 0;
	if (io->finishing)
		return;
	bev_send(io->out);
	io_sent(io);
}

static void write_cb(struct bufferevent *bev, void *arg)
{
	struct session_io *io = arg;

	if (io->finishing) {
		if (evbuffer_get_length(bufferevent_get_output(io->out)) == 0)
			io_linger(io);
		return;
	}
	bev_send_idle(io->out);
	io_sent(io);
}

static void event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct session_io *io = arg;

	if (io->lingering) {
		/* The client hung up (or failed): done. */
		event_active(io->close_ev, EV_READ, 0);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT) {
		idle_check(io);
		return;
	}
	if (what & BEV_EVENT_ERROR) {
		log_note(io->id, "I/O error on the %s side", bev == io->in ? "input" : "output");
		session_io_finish(io, 0);
		return;
	}
	if (what & BEV_EVENT_EOF) {
		if (bev == io->in && (what & BEV_EVENT_READING)) {
			log_note(io->id, "client EOF");
			io->eof = 1;
			session_io_schedule(io);
		} else {
			session_io_finish(io, 0);
		}
	}
}

int session_io_init(struct session_io *io, struct event_base *base, struct bufferevent *in,
		    struct bufferevent *out, unsigned id, const struct session_limits *lim,
		    const struct session_io_ops *ops, void *arg, front_closed_cb *closed,
		    void *closed_arg)
{
	memset(io, 0, sizeof *io);
	io->in = in;
	io->out = out;
	io->id = id;
	io->lim = *lim;
	if (ops->line && io->lim.max_line == 0)
		io->lim.max_line = ops->max_line_default;
	if (io->lim.max_buffer == 0)
		io->lim.max_buffer = SESSION_IO_MAX_BUFFER_DEFAULT;
	io->ops = ops;
	io->arg = arg;
	io->closed = closed;
	io->closed_arg = closed_arg;
	io->last_input_ms = (uint64_t)now_ms();
	io->process_ev = event_new(base, -1, 0, process_event, io);
	io->close_ev = event_new(base, -1, 0, close_event, io);
	io->send_ev = event_new(base, -1, 0, send_event, io);
	io->acked_ev = event_new(base, -1, EV_PERSIST, acked_event, io);
	if (!io->process_ev || !io->close_ev || !io->send_ev || !io->acked_ev) {
		log_note(id, "cannot set the session up: out of memory");
		return -1;
	}

	bufferevent_setcb(in, read_cb, in == out ? write_cb : NULL, event_cb, io);
	if (out != in)
		bufferevent_setcb(out, NULL, write_cb, event_cb, io);
	/* Lines: one maximal line (and its CR LF) may sit in the input; no more is read. */
	bufferevent_setwatermark(in, EV_READ, 0,
				 ops->line ? io->lim.max_line + SESSION_IO_LINE_SLACK : ops->read_high);
	bufferevent_setwatermark(out, EV_WRITE, io->lim.max_buffer / 2, 0);
	if (idle_first_ms(&io->lim)) {
		struct timeval tv = ms_timeval(idle_first_ms(&io->lim));
		bufferevent_set_timeouts(in, &tv, NULL);
	}
	bev_send_idle(out);      /* a new bufferevent has EV_WRITE on: off while empty */
	bufferevent_enable(in, EV_READ);
	return 0;
}

void session_io_release(struct bufferevent *in, struct bufferevent *out)
{
	if (out && out != in)
		bufferevent_free(out);
	if (in)
		bufferevent_free(in);
}

static void stop_event(evutil_socket_t fd, short what, void *arg)
{
	struct session_io *io = arg;
	/* A back end that keeps time itself gives its engine the whole time, counted
	 * from when the engine has the command: a stop here would cut it short. */
	if (io->engine && !io->engine->ops->keeps_time &&
	    (!io->ops->searching || io->ops->searching(io->arg)))
		engine_stop(io->engine);
}

void *session_io_new(size_t size, struct event_base *base, struct bufferevent *in,
		     struct bufferevent *out, unsigned id, const struct engine_profile *profile,
		     const struct session_limits *lim, const struct session_io_ops *ops,
		     front_closed_cb *closed, void *closed_arg)
{
	struct session_io *io = calloc(1, size);

	if (!io) {
		session_io_release(in, out);
		return NULL;
	}
	if (session_io_init(io, base, in, out, id, lim, ops, io, closed, closed_arg) < 0)
		goto fail;
	io->base = base;
	io->profile = profile;
	if (!(io->stop_ev = evtimer_new(base, stop_event, io))) {
		log_note(id, "cannot set the session up: out of memory");
		goto fail;
	}
	log_note(id, "session opened, engine profile %s",
		 profile && profile->name ? profile->name : "builtin");
	return io;
fail:
	session_io_free(io);
	free(io);
	return NULL;
}

struct engine *session_io_engine(struct session_io *io, char *err, size_t errlen)
{
	if (!io->engine) {
		io->engine = engine_new(io->base, io->profile, err, errlen);
		engine_set_log_id(io->engine, io->id);
	}
	return io->engine;
}

void session_io_drop_engine(struct session_io *io)
{
	engine_free(io->engine);
	io->engine = NULL;
}

void session_io_arm_stop(struct session_io *io, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000 };
	evtimer_add(io->stop_ev, &tv);
}

void session_io_live(struct session_io *io, const char *kind, const char *client,
		     const struct hive_game *g)
{
	live_report(&io->lg, kind, client,
		    io->profile && io->profile->name ? io->profile->name : "builtin", g);
}

void session_io_live_end(struct session_io *io)
{
	live_close(io->lg);
	io->lg = NULL;
}

void session_io_free(struct session_io *io)
{
	session_io_drop_engine(io);
	session_io_live_end(io);
	util_event_free(&io->stop_ev);
	util_event_free(&io->process_ev);
	util_event_free(&io->close_ev);
	util_event_free(&io->send_ev);
	util_event_free(&io->acked_ev);
	session_io_release(io->in, io->out);
	io->in = io->out = NULL;
}
