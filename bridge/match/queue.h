/*
 * queue.h: the Redis side of `match --queue` and `worker` (match_queue.c, worker.c):
 * the URL, the password, one hiredis connection on the bridge's libevent loop that
 * reconnects with back-off, and the names of the match's keys. Not for use outside
 * bridge/match/.
 *
 * Keys of match NAME, all under "hivebridge:NAME:":
 *   jobs     stream, one entry per game (IDs from Redis: "*"), consumer group
 *            "workers"; the coordinator reads it back on each connection to
 *            know which games it holds (match_queue.c)
 *   results  stream, one entry per finished game: game, worker, line (the JSON line)
 *   events   stream, what workers report once: worker, text
 *   progress stream, capped (MAXLEN ~ QUEUE_PROGRESS_MAX): one entry per ply of a
 *            game whose job asked for it (live=1, the coordinator has --http):
 *            game, worker, gs (its GameString), wms and bms (clocks, if any)
 *   dead     stream, one entry per job a worker could not play and set aside
 *            (acknowledged): game (its number, or the job's entry ID if it had
 *            none), worker, reason, id (the job's entry ID)
 *   match    hash, "sig": the match's options, so a second match cannot reuse NAME
 *   stop     string, set when the workers must drop the remaining jobs:
 *            "over ..." (finished or decided: workers exit) or "paused" (the
 *            coordinator was stopped: workers wait for it)
 */
#ifndef BRIDGE_MATCH_QUEUE_H
#define BRIDGE_MATCH_QUEUE_H

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

struct event;
struct event_base;

#define QUEUE_GROUP        "workers"
#define QUEUE_NAME_MAX     64
#define QUEUE_BACKOFF_MIN  200        /* ms, doubled after each failed attempt */
#define QUEUE_BACKOFF_MAX  5000
#define QUEUE_PASSWORD_ENV "HIVEBRIDGE_REDIS_PASSWORD"
#define QUEUE_USER_ENV     "HIVEBRIDGE_REDIS_USER"
#define QUEUE_PROGRESS_MAX "1024"    /* entries kept on the progress stream (about) */
#define QUEUE_PROGRESS_GS  32768     /* a longer GameString is not published */

/* Every aggregate of one reply together: 8 MB of element tables. */
#define QUEUE_MAX_ELEMENTS (1u << 20)
/* What each element of a reply is charged against reply_max besides its bytes:
 * hiredis allocates a redisReply (48 bytes) and a table slot for each, so 512k
 * empty strings would cost 100 MiB while counting 0 bytes. */
#define QUEUE_ELEMENT_COST 64
/* A worker's replies: a job's fields are a few KiB (an opening at most 64 KiB). */
#define QUEUE_WORKER_STRING_MAX (1u << 20)
#define QUEUE_WORKER_REPLY_MAX  (4u << 20)

/* What one connection's replies may hold. hiredis reads a bulk string whole before
 * it hands it over (a 100 MB job field would be buffered, then copied), and bounds
 * only its idle buffer (maxbuf): so each string, and the strings of one reply
 * together, are bounded here, and so is what the reader holds of a reply not yet
 * complete (checked after each read, queue.c's event adapter). Past a bound the
 * connection drops, saying why, and is made again with back-off. The coordinator
 * sets none: a result line may be 4 MiB, and an entry over a bound would be read
 * again after each reconnection, forever (it is refused once read instead). */
struct queue_bound {
	size_t string_max;   /* one string (and the reader's unparsed bytes); 0 = none */
	size_t reply_max;    /* one reply's strings together; 0 = no bound */
	size_t elements, bytes;   /* of the reply being read */
	char   why[96];      /* the bound a reply broke, "" if none */
};
/* Makes reader r refuse a reply whose aggregates claim more than QUEUE_MAX_ELEMENTS
 * (hiredis 0.14 allocates them as the headers say) or whose strings break b's
 * bounds: a reader error instead. b must outlive r. Every connection's reader gets
 * it, and the fuzz targets' too. */
void queue_bound_reader(redisReader *r, struct queue_bound *b);

struct queue_conn {
	struct event_base  *base;
	const char         *who;           /* "match", "worker": messages */
	char                host[256];
	int                 port;
	char                name[QUEUE_NAME_MAX + 1];
	char               *password;      /* owned, NULL = none */
	char               *user;          /* owned, NULL = Redis's default user (an ACL user) */
	char                k_jobs[128], k_results[128], k_events[128], k_match[128], k_stop[128],
			    k_progress[128], k_dead[128];
	redisAsyncContext  *ac;            /* NULL while down */
	struct queue_bound  bound;         /* its replies' (set before queue_start) */
	int                 ready;         /* connected, authenticated, answering */
	int                 closing;       /* queue_close: callbacks ignore NULL replies */
	int                 failed;        /* a fatal error (a refused password) */
	int                 outage;        /* a failure has been reported */
	unsigned            backoff_ms;
	/* Connections dropped in a row at a bound: while non-zero the back-off keeps
	 * doubling across reconnections (a reply that always breaks a bound would
	 * otherwise be read again every QUEUE_BACKOFF_MIN); cleared once a connection
	 * stayed up QUEUE_BACKOFF_MAX. */
	unsigned            drops;
	long long           up_ms;         /* now_ms() when it last became ready */
	struct event       *retry;
	void              (*on_ready)(void *arg);   /* (re)connected and answering */
	void              (*on_down)(void *arg);    /* lost; pending replies came back NULL */
	void              (*on_fatal)(void *arg);   /* q->failed: nothing will work */
	void               *arg;
};

/* redis://HOST[:PORT]/NAME into q (and its key names); -1 with the reason in err,
 * which refuses a password in the URL and says where it goes. */
int  queue_url_parse(struct queue_conn *q, const char *url, char *err, size_t errlen);
/* The password: $HIVEBRIDGE_REDIS_PASSWORD (then removed from the environment,
 * which engines inherit), else [queue] password of the config file (if any), read
 * with its [queue] user (the Redis ACL user it belongs to; queue_start takes
 * $HIVEBRIDGE_REDIS_USER over it; none: Redis's default user). -1 with the reason
 * in err when the file cannot be read. */
int  queue_password_load(struct queue_conn *q, const char *config_path, char *err, size_t errlen);
/* Starts connecting on base (AUTH as $HIVEBRIDGE_REDIS_USER if set); on_ready
 * fires once Redis answers. -1 on no memory. */
int  queue_start(struct queue_conn *q, struct event_base *base);
/* A command while q->ready; -1 when down (the callback will not run). A NULL reply
 * in fn means the connection went away. */
int  queue_cmd(struct queue_conn *q, redisCallbackFn *fn, void *priv, const char *fmt, ...);
int  queue_cmd_argv(struct queue_conn *q, redisCallbackFn *fn, void *priv, int argc,
		    const char **argv, const size_t *argvlen);
/* Drops the connection and frees what q holds. Safe on a half-built q. */
void queue_close(struct queue_conn *q);
/* queue_reply.c: replies decoded without a connection (pure; fuzzed). Any reply
 * of any shape is safe to pass; NULL is too. */
/* A stream entry ID as Redis makes them, "MS-SEQ" (digits), safe to send back. */
int  queue_id_valid(const char *id);
/* The ID of a stream entry [id, [field, value, ...]], NULL if e is not one. */
const char *queue_entry_id(const redisReply *e);
/* True if r is what XREAD answers (nil or an array), whatever is in it. */
int  queue_xread_answer(const redisReply *r);
/* The entries of stream key in XREAD's answer [[name, [entry, ...]], ...]; NULL if
 * it is not there (or not an array). Each entry still needs queue_entry_id. */
const redisReply *queue_xread_stream(const redisReply *r, const char *key);
/* n strings or nils (HMGET, MGET) into out (NULL for a nil); -1 if r is not that. */
int  queue_strings(const redisReply *r, size_t n, const char **out);
/* An integer reply into *v; -1 if r is not one. */
int  queue_integer(const redisReply *r, long long *v);
/* XPENDING's summary: up to max consumers with their counts into out (pointers into
 * r), their number in *n; -1 if r is not a summary. */
struct queue_pending {
	const char *name;
	unsigned    count;
};
int  queue_pending_decode(const redisReply *r, struct queue_pending *out, size_t max, size_t *n);
/* An entry of the dead-letter stream (pointers into e; NULL for a field absent):
 * game is 0 unless the "game" field is a number from 1 to games. -1 if e is not an
 * entry. */
struct queue_dead {
	const char *entry;               /* its ID on the dead stream */
	unsigned    game;
	const char *game_text, *worker, *reason, *job;
};
int  queue_dead_decode(const redisReply *e, unsigned games, struct queue_dead *d);
/* src (NULL: "?") for a terminal: printable ASCII kept, a backslash doubled, any
 * other byte as \xNN, cut with "..." to fit len (at least 8). Returns dst. */
const char *queue_escape(char *dst, size_t len, const char *src);

/* True if r is an error reply starting with prefix. */
int  queue_is_error(const redisReply *r, const char *prefix);
/* A stream entry's field value (NULL if absent); entry is [id, [f, v, ...]]. */
const char *queue_field(const redisReply *entry, const char *field);

#endif
