/*
 * http.h: the web page and its JSON endpoints, served by the daemon (and by match)
 * with an HTTP/1.1 transport of its own (http_conn.c) on the process's event loop. What it shows comes from the
 * live registry (bridge/live.h); games a person plays through the page are its own
 * (http_play.c). docs/web.md documents the endpoints.
 */
#ifndef BRIDGE_HTTP_H
#define BRIDGE_HTTP_H

struct cJSON;
struct config;
struct event_base;
struct http_server;

/* Listens on spec ("ADDR:PORT", "[V6ADDR]:PORT", ":PORT" = 127.0.0.1), says
 * "listening on ADDR:PORT (http)" on stderr and turns the live registry on. conf
 * (its engine profiles: games against them) must outlive the server. NULL with
 * err on failure. */
struct http_server *http_start(struct event_base *base, const struct config *conf,
			       const char *spec, char *err, size_t errlen);

/* The match dashboard's data: summary() returns a new cJSON object (GET /api/match)
 * that the server frees. */
void http_set_match(struct http_server *h, struct cJSON *(*summary)(void *arg), void *arg);

/* The process stops: the page's games end without a result, for reason (their
 * watchers get the event), and no new one starts. NULL-safe. */
void http_shutdown(struct http_server *h, const char *reason);
/* Whether an event stream has output not yet sent (the shutdown waits for it). */
int  http_pending(const struct http_server *h);

/* Closes every connection, ends the page's games, turns the registry off. NULL-safe. */
void http_free(struct http_server *h);

#endif
