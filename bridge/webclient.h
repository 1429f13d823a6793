/*
 * webclient.h: HTTP(S) requests on the bridge's event loop, through libcurl's multi
 * interface (its sockets and its timer are libevent events: nothing blocks the loop).
 * Every request has a time limit and a bound on its answer's size; redirects are not
 * followed and only http and https are spoken. Each request and answer goes to the
 * trace log under the caller's session number, its Authorization header never, and
 * a body or answer marked secret only as its length.
 */
#ifndef BRIDGE_WEBCLIENT_H
#define BRIDGE_WEBCLIENT_H

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct webclient;
struct webclient_call;

#define WEBCLIENT_SECRET_BODY   1   /* the request's body (a password) is not logged */
#define WEBCLIENT_SECRET_ANSWER 2   /* nor the answer (a token) */

struct webclient_request {
	const char *method;        /* "GET" or "POST" */
	const char *url;
	const char *body;          /* POST: JSON text; NULL for none */
	const char *bearer;        /* Authorization: Bearer ..., NULL for none */
	unsigned    timeout_ms;    /* the whole request, connect included (0: 10 s) */
	size_t      max_answer;    /* bytes (0: 1 MiB); a longer answer is an error */
	int         secret;        /* WEBCLIENT_SECRET_* bits */
	unsigned    log_id;        /* the session number of its trace lines */
};

struct webclient_answer {
	long        status;        /* the HTTP status, 0 when none came */
	const char *error;         /* NULL when an answer came, else why not (a sentence) */
	const char *body;          /* NUL-terminated, len bytes (valid during the callback) */
	size_t      len;
	int64_t     elapsed_ms;    /* from send to the answer's end */
};

/* Called once per request that was sent, from the loop (never from inside
 * webclient_send); it may send more requests but must not free the client. */
typedef void webclient_done_cb(void *arg, const struct webclient_answer *a);

/* NULL with err on failure. */
struct webclient *webclient_new(struct event_base *base, char *err, size_t errlen);
/* Starts a request; NULL with err if it could not (its callback then never fires). */
struct webclient_call *webclient_send(struct webclient *w, const struct webclient_request *rq,
				      webclient_done_cb *done, void *arg, char *err, size_t errlen);
/* Drops a request still running: its callback never fires. */
void webclient_cancel(struct webclient_call *c);
/* Requests running now. */
size_t webclient_running(const struct webclient *w);
/* Drops every request (no callback fires) and frees w; NULL is a no-op. */
void webclient_free(struct webclient *w);

#endif
