/*
 * fake_trylobot_module: a Trylobot "remote AI module" with fault switches, for
 * driving the bridge's trylobot back end in tests.
 *
 *   fake_trylobot_module --port-file FILE [--mode MODE] [--after N] [--count K]
 *                        [--slow-ms MS] [--log FILE]
 *
 * Listens on a free loopback port (written to FILE once listening) and serves one
 * connection at a time, for ever (the test kills it). Every Choose Turn request is
 * checked: it must parse, replay from its turn_history with the core and agree with
 * its board, hands and possible_turns; a request that does not gets json-socket's
 * error frame (and a line on stderr).
 *
 * Requests numbered after+1 .. after+count (over all connections, count 0 = all
 * from then on) get the MODE's fault instead of a good answer:
 *   ok        no fault: a listed Placement/Movement/Forfeit (deterministic)
 *   garbage   bytes that are no frame        badjson  a frame that is no JSON
 *   error     {"success":false,"error":...}  illegal  a turn the rules forbid
 *   errorlines  the same with a multi-line error (a JavaScript stack trace)
 *   silence   no answer at all               close    close the connection
 *   slow      a good answer after --slow-ms  extra    a good answer, then another
 *   greeting  a Greetings answer to Choose Turn
 *   ability   a listed Special Ability when there is one, else a good answer
 *   rules     a readable turn the rules forbid (a Placement beside the opponent,
 *             or on a piece): a move the engine interface must refuse
 * and for Greetings (every one): inactive (active false), mute (no answer).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"

struct fake {
	const char *mode;
	long        after, count;
	int         slow_ms;
	long        requests;       /* Choose Turn requests so far */
	FILE       *log;
};

static int send_all(int fd, const void *p, size_t len)
{
	const char *s = p;
	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_msg(int fd, cJSON *msg)
{
	size_t len;
	char *f = msg ? tb_frame_build(msg, &len) : NULL;
	cJSON_Delete(msg);
	if (!f)
		return -1;
	int rc = send_all(fd, f, len);
	free(f);
	return rc;
}

static int send_error(int fd, const char *msg)
{
	char buf[TB_ERR_MAX + 16];
	snprintf(buf, sizeof buf, "Error: %s", msg);
	return send_msg(fd, tb_error_json(buf));
}

static int is(const struct fake *f, const char *mode)
{
	return !strcmp(f->mode, mode);
}

/* Whether the current request gets the fault. */
static int faulty(const struct fake *f)
{
	return f->requests > f->after && (f->count == 0 || f->requests <= f->after + f->count);
}

/* The bridge's request must be a consistent game_state; the possible_turns must be
 * exactly what the core lists for the replayed position. */
static int check_request(const struct tb_request *rq, struct tb_replay *rp, char *err, size_t errlen)
{
	struct tb_turns mine = { 0 };
	if (tb_replay_load(rp, &rq->state, err, errlen) < 0)
		return -1;
	if (tb_replay_possible(rp, &mine, err, errlen) < 0) {
		tb_replay_free(rp);
		return -1;
	}
	int same = mine.n == rq->state.possible.n;
	for (size_t i = 0; same && i < mine.n; i++)
		same = tb_turns_has(&rq->state.possible, &mine.v[i]);
	tb_turns_free(&mine);
	if (!same) {
		snprintf(err, errlen, "possible_turns differ from the core's");
		tb_replay_free(rp);
		return -1;
	}
	return 0;
}

/* A good answer: the first listed Placement/Movement, else Forfeit. */
static struct tb_turn good_turn(const struct tb_request *rq)
{
	struct tb_turn t;
	memset(&t, 0, sizeof t);
	t.type = TB_FORFEIT;
	for (size_t i = 0; i < rq->state.possible.n; i++) {
		const struct tb_turn *c = &rq->state.possible.v[i];
		/* Prefer movements, so that games get somewhere. */
		if (c->type == TB_MOVEMENT || (c->type == TB_PLACEMENT && t.type == TB_FORFEIT))
			t = *c;
		if (t.type == TB_MOVEMENT)
			break;
	}
	return t;
}

/* A Placement that names a move (a bug in hand, a cell next to the hive) the core
 * refuses; -1 if there is none (an empty board). */
static int rules_turn(const struct tb_replay *rp, struct tb_turn *t)
{
	struct hive_move c, m;
	char err[TB_ERR_MAX];

	for (int p = 0; p < HIVE_PIECES; p++) {
		if (rp->game.board.pos[p] == HIVE_NOWHERE)
			continue;
		for (int d = 0; d < HIVE_DIRS; d++)
			for (int bug = HIVE_QUEEN; bug <= HIVE_ANT; bug++) {
				memset(t, 0, sizeof *t);
				t->type = TB_PLACEMENT;
				t->bug = (uint8_t)bug;
				t->dst = tb_pos_step(rp->pos[p], d);
				if (tb_replay_turn_candidate(rp, t, &c, err, sizeof err) == 0 &&
				    !hive_board_find_move(&rp->game.board, c, &m))
					return 0;
			}
	}
	return -1;
}

/* Answers one Choose Turn; -1 to drop the connection. */
static int choose_turn(struct fake *f, int fd, const struct tb_request *rq)
{
	struct tb_replay rp;
	struct tb_turn t;
	char err[TB_ERR_MAX];

	f->requests++;
	if (check_request(rq, &rp, err, sizeof err) < 0) {
		fprintf(stderr, "fake_trylobot_module: bad request from the bridge: %s\n", err);
		return send_error(fd, err);
	}
	t = good_turn(rq);
	int fault = faulty(f);
	int rc = 0;
	/* Logged before the answer: once the bridge has it, the test may count. */
	if (f->log) {
		fprintf(f->log, "request %ld (ply %ld): %s\n", f->requests, rq->state.turn_number,
			fault ? f->mode : "ok");
		fflush(f->log);
	}
	if (!fault || is(f, "ok")) {
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else if (is(f, "garbage")) {
		rc = send_all(fd, "xyz#not a frame", 15);
	} else if (is(f, "badjson")) {
		rc = send_all(fd, "5#{abc}", 7);
	} else if (is(f, "error")) {
		rc = send_error(fd, "the fake module failed on purpose");
	} else if (is(f, "errorlines")) {
		rc = send_error(fd, "TypeError: Cannot read properties of undefined (reading 'Mosquito')\n"
			     "    at chooseTurn (/opt/module/her.js:12:7)\r\n"
			     "    at Socket.<anonymous> (/opt/module/server.js:40:3)\n");
	} else if (is(f, "illegal")) {
		/* A queen far away from the hive. */
		memset(&t, 0, sizeof t);
		t.type = TB_PLACEMENT;
		t.bug = HIVE_QUEEN;
		t.dst.row = 40;
		t.dst.col = 40;
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else if (is(f, "silence")) {
		rc = 0;
	} else if (is(f, "close")) {
		rc = -1;
	} else if (is(f, "slow")) {
		poll(NULL, 0, f->slow_ms);
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else if (is(f, "extra")) {
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
		if (rc == 0)
			rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else if (is(f, "greeting")) {
		struct tb_identity id = { .name = "fake", .version = "0.0.1" };
		rc = send_msg(fd, tb_greetings_answer_json(&id, rq->request_id));
	} else if (is(f, "rules")) {
		if (rules_turn(&rp, &t) < 0)
			fprintf(stderr, "fake_trylobot_module: no turn the rules forbid here\n");
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else if (is(f, "ability")) {
		for (size_t i = 0; i < rq->state.possible.n; i++)
			if (rq->state.possible.v[i].type == TB_ABILITY) {
				t = rq->state.possible.v[i];
				break;
			}
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	} else {
		rc = send_msg(fd, tb_turn_answer_json(&t, rq->request_id, rq->game_id));
	}
	tb_replay_free(&rp);
	return rc;
}

static int greetings(struct fake *f, int fd, const struct tb_request *rq)
{
	struct tb_identity id = {
		.name = "fake", .long_name = "Fake module", .version = "0.0.1",
		.description = "a test module with faults", .author = "hivebridge tests",
	};
	if (is(f, "mute"))
		return 0;
	cJSON *msg = tb_greetings_answer_json(&id, rq->request_id);
	if (msg && is(f, "inactive"))
		cJSON_ReplaceItemInObjectCaseSensitive(msg, "active", cJSON_CreateFalse());
	return send_msg(fd, msg);
}

/* Serves one connection until EOF, an error or a fault that closes it. */
static void serve(struct fake *f, int fd)
{
	struct tb_reader rd;
	unsigned char buf[4096];

	tb_reader_init(&rd, 0);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		if (n <= 0)
			break;
		size_t off = 0;
		int drop = 0;
		while (off < (size_t)n && !drop) {
			size_t used;
			int rc = tb_reader_push(&rd, buf + off, (size_t)n - off, &used);
			off += used;
			if (rc < 0) {
				/* Like json-socket: an error frame, the buffer dropped. */
				send_error(fd, tb_reader_error(&rd));
				tb_reader_reset(&rd);
				break;
			}
			if (rc == 0)
				continue;
			size_t len;
			const char *json = tb_reader_frame(&rd, &len);
			struct tb_request rq;
			char err[TB_ERR_MAX];
			if (tb_request_parse(json, len, &rq, err, sizeof err) < 0) {
				fprintf(stderr, "fake_trylobot_module: unreadable request: %s\n", err);
				drop = send_error(fd, err) < 0;
				continue;
			}
			drop = (rq.type == TB_REQ_GREETINGS ? greetings(f, fd, &rq) : choose_turn(f, fd, &rq)) < 0;
			tb_request_free(&rq);
		}
		if (drop)
			break;
	}
	tb_reader_free(&rd);
	close(fd);
}

int main(int argc, char **argv)
{
	struct fake f = { .mode = "ok", .after = 0, .count = 0, .slow_ms = 2000 };
	const char *port_file = NULL, *log_path = NULL;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (!strcmp(k, "--port-file"))
			port_file = v;
		else if (!strcmp(k, "--mode"))
			f.mode = v;
		else if (!strcmp(k, "--after"))
			f.after = atol(v);
		else if (!strcmp(k, "--count"))
			f.count = atol(v);
		else if (!strcmp(k, "--slow-ms"))
			f.slow_ms = atoi(v);
		else if (!strcmp(k, "--log"))
			log_path = v;
		else {
			fprintf(stderr, "fake_trylobot_module: unknown option %s\n", k);
			return 2;
		}
	}
	if (!port_file || (argc % 2) == 0) {
		fprintf(stderr, "usage: fake_trylobot_module --port-file FILE [--mode MODE] [--after N] "
			"[--count K] [--slow-ms MS] [--log FILE]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (log_path && !(f.log = fopen(log_path, "a"))) {
		perror(log_path);
		return 1;
	}
	if (f.log)
		setvbuf(f.log, NULL, _IOLBF, 0);

	int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
	socklen_t alen = sizeof a;
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 8) < 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &alen) < 0) {
		perror("fake_trylobot_module: listen");
		return 1;
	}
	/* Written then renamed, so that a reader never sees half a number. */
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s.tmp", port_file);
	FILE *pf = fopen(tmp, "w");
	if (!pf || fprintf(pf, "%u\n", ntohs(a.sin_port)) < 0 || fclose(pf) != 0 || rename(tmp, port_file) < 0) {
		perror(port_file);
		return 1;
	}
	for (;;) {
		int fd = accept(ls, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("accept");
			return 1;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (f.log)
			fprintf(f.log, "connection\n");
		serve(&f, fd);
	}
}
