/*
 * test_trylobot.c: the Trylobot codec on the real frames in $HIVE_DATA/trylobot/,
 * the UTF-16 length rule, streaming and broken frames, the coordinate mapping, and
 * core move <-> Trylobot turn <-> JSON round trips over random games of all 8 types.
 *
 * With "--dump DIR" it writes every kind of JSON message we produce into DIR
 * (for tests/integration/schemas.sh) and exits.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "adapters/trylobot/trylobot_codec.h"
#include "adapters/trylobot/trylobot_coords.h"
#include "adapters/trylobot/trylobot_json.h"
#include "core/board.h"
#include "core/game.h"
#include "tests/unit/unit.h"

/* The worked example of the notes (section 3.2) for the MLP frame. */
#define MLP_GAMESTRING "Base+MLP;InProgress;White[6];wM;bS1 /wM;wA1 \\wM;bB1 bS1\\;wP wM/;" \
	"bB2 -bS1;wQ wM-;bQ \\bB2;wQ wP-;bB1 bS1"

static const char *const frame_files[] = {
	"greetings-request.frame", "greetings-response.frame", "choose-turn-first.frame",
	"choose-turn-forfeit-only.frame", "choose-turn-mlp-stack-abilities.frame"
};
#define NFRAMES (sizeof frame_files / sizeof frame_files[0])

static const char *data_dir(void)
{
	const char *d = getenv("HIVE_DATA");
	return d && *d ? d : "../shared/data";
}

/* Reads a whole data file; caller frees. */
static char *slurp(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/trylobot/%s", data_dir(), name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 4096, n = 0, k;
	char *buf = malloc(cap + 1);
	while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

/* Frames collected from a stream. */
struct frames {
	char  *text[64];
	size_t len[64];
	int    n;
};

static void frames_free(struct frames *fs)
{
	for (int i = 0; i < fs->n; i++)
		free(fs->text[i]);
	fs->n = 0;
}

/* Pushes a chunk, collecting complete frames; returns the reader's last result. */
static int feed(struct tb_reader *r, const char *p, size_t len, struct frames *fs)
{
	while (len) {
		size_t used, flen;
		int rc = tb_reader_push(r, p, len, &used);
		p += used;
		len -= used;
		if (rc < 0)
			return -1;
		if (rc == 1) {
			const char *f = tb_reader_frame(r, &flen);
			if (fs->n < 64) {
				fs->text[fs->n] = strndup(f, flen);
				fs->len[fs->n++] = flen;
			}
		}
	}
	return 0;
}

/* The JSON text of a frame file (after "<N>#"). */
static char *frame_json(const char *name, size_t *len)
{
	size_t n;
	char *raw = slurp(name, &n);
	if (!raw)
		return NULL;
	struct tb_reader r;
	struct frames fs = { .n = 0 };
	tb_reader_init(&r, 0);
	int rc = feed(&r, raw, n, &fs);
	int idle = tb_reader_idle(&r);
	tb_reader_free(&r);
	free(raw);
	if (rc || fs.n != 1 || !idle) {
		frames_free(&fs);
		return NULL;
	}
	*len = fs.len[0];
	return fs.text[0];
}

static int load_request(const char *name, struct tb_request *rq)
{
	size_t len;
	char err[TB_ERR_MAX];
	char *json = frame_json(name, &len);
	if (!json)
		return -1;
	int rc = tb_request_parse(json, len, rq, err, sizeof err);
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err);
	free(json);
	return rc;
}

static int same_move(struct hive_move a, struct hive_move b)
{
	return a.piece == b.piece && (a.piece == HIVE_PASS_PIECE || a.to == b.to);
}

/* Whether the Trylobot list names exactly the core's legal moves. */
static int possible_matches_core(const struct tb_replay *r, const struct tb_turns *possible)
{
	struct hive_move moves[HIVE_MAX_MOVES], got[HIVE_MAX_MOVES * 2];
	size_t n = hive_board_moves(&r->game.board, moves), ng = 0;
	char err[TB_ERR_MAX];
	for (size_t i = 0; i < possible->n; i++) {
		struct hive_move m;
		if (tb_replay_turn_move(r, &possible->v[i], &m, err, sizeof err)) {
			fprintf(stderr, "possible turn %zu: %s\n", i, err);
			return 0;
		}
		if (ng < HIVE_MAX_MOVES * 2)
			got[ng++] = m;
	}
	for (size_t i = 0; i < n; i++) {
		int found = 0;
		for (size_t k = 0; k < ng && !found; k++)
			found = same_move(moves[i], got[k]);
		if (!found) {
			fprintf(stderr, "core move %s missing from possible_turns\n", hive_piece_name(moves[i].piece));
			return 0;
		}
	}
	return 1;    /* and every listed turn is legal (turn_move checked it) */
}

/*
 * Real frames.
 */

static void test_greetings_frames(void)
{
	struct tb_request rq;
	struct tb_response rs;
	char err[TB_ERR_MAX];
	size_t len;

	CU_ASSERT_EQUAL_FATAL(load_request("greetings-request.frame", &rq), 0);
	CU_ASSERT_EQUAL(rq.type, TB_REQ_GREETINGS);
	CU_ASSERT_STRING_EQUAL(rq.request_id, "4HiFC");
	CU_ASSERT_STRING_EQUAL(rq.system_version, "0.1.0");
	tb_request_free(&rq);

	char *json = frame_json("greetings-response.frame", &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(json);
	CU_ASSERT_EQUAL(tb_response_parse(json, len, &rs, err, sizeof err), 0);
	CU_ASSERT_EQUAL(rs.type, TB_RESP_GREETINGS);
	CU_ASSERT(rs.active);
	CU_ASSERT_STRING_EQUAL(rs.name, "rando");
	CU_ASSERT_STRING_EQUAL(rs.long_name, "Rando[m]");
	tb_response_free(&rs);
	/* A Greetings answer is not a request. */
	CU_ASSERT_EQUAL(tb_request_parse(json, len, &rq, err, sizeof err), -1);
	free(json);
}

static void test_first_frame(void)
{
	struct tb_request rq;
	struct tb_replay r;
	char err[TB_ERR_MAX];
	CU_ASSERT_EQUAL_FATAL(load_request("choose-turn-first.frame", &rq), 0);
	CU_ASSERT_EQUAL(rq.type, TB_REQ_CHOOSE_TURN);
	CU_ASSERT_STRING_EQUAL(rq.game_id, "98YPX");
	CU_ASSERT_EQUAL(rq.request_timestamp, 1795315913419LL);
	CU_ASSERT_EQUAL(rq.response_deadline, 0);
	CU_ASSERT_EQUAL(rq.state.type, 0);
	CU_ASSERT_EQUAL(rq.state.nstacks, 0);
	CU_ASSERT_EQUAL(rq.state.hand[HIVE_BLACK][HIVE_ANT], 3);
	CU_ASSERT_EQUAL(rq.state.hand[HIVE_WHITE][HIVE_SPIDER], 2);
	CU_ASSERT_EQUAL(rq.state.possible.n, 4);    /* four types at 0,0 */
	CU_ASSERT_EQUAL_FATAL(tb_replay_load(&r, &rq.state, err, sizeof err), 0);
	CU_ASSERT(possible_matches_core(&r, &rq.state.possible));
	tb_replay_free(&r);
	tb_request_free(&rq);
}

static void test_forfeit_frame(void)
{
	struct tb_request rq;
	struct tb_replay r;
	struct tb_turn t;
	struct hive_move moves[HIVE_MAX_MOVES];
	char err[TB_ERR_MAX];
	CU_ASSERT_EQUAL_FATAL(load_request("choose-turn-forfeit-only.frame", &rq), 0);
	CU_ASSERT_EQUAL_FATAL(rq.state.possible.n, 1);
	CU_ASSERT_EQUAL(rq.state.possible.v[0].type, TB_FORFEIT);
	CU_ASSERT_EQUAL(rq.state.history.n, 32);
	if (tb_replay_load(&r, &rq.state, err, sizeof err))
		fprintf(stderr, "forfeit frame: %s\n", err);
	else {
		size_t n = hive_board_moves(&r.game.board, moves);
		CU_ASSERT_EQUAL(n, 1);
		CU_ASSERT_EQUAL(moves[0].piece, HIVE_PASS_PIECE);
		CU_ASSERT_EQUAL(tb_replay_answer(&r, &rq.state.possible, moves[0], &t, err, sizeof err), 1);
		CU_ASSERT_EQUAL(t.type, TB_FORFEIT);
		CU_ASSERT(possible_matches_core(&r, &rq.state.possible));
		tb_replay_free(&r);
	}
	tb_request_free(&rq);
}

/* Parses a MoveString of the worked example on r's board. */
static struct hive_move uhp(const struct tb_replay *r, const char *s)
{
	struct hive_move m = { .piece = HIVE_NO_PIECE };
	char err[128];
	if (hive_move_parse(&r->game.board, s, &m, err, sizeof err))
		fprintf(stderr, "%s: %s\n", s, err);
	return m;
}

static void test_mlp_frame(void)
{
	struct tb_request rq;
	struct tb_replay r;
	struct hive_game want;
	struct tb_turn t;
	struct hive_move m;
	char err[TB_ERR_MAX], gs[1024];

	CU_ASSERT_EQUAL_FATAL(load_request("choose-turn-mlp-stack-abilities.frame", &rq), 0);
	CU_ASSERT_EQUAL(rq.state.type, 7);
	CU_ASSERT_EQUAL(rq.state.turn_number, 10);
	CU_ASSERT_EQUAL(rq.state.nstacks, 7);
	CU_ASSERT_EQUAL(rq.state.history.n, 10);
	/* "2,0": black spider under the black beetle, bottom to top. */
	const struct tb_stack *two = &rq.state.stack[1];
	CU_ASSERT(two->pos.row == 2 && two->pos.col == 0 && two->height == 2 &&
		  two->piece[0].bug == HIVE_SPIDER && two->piece[1].bug == HIVE_BEETLE &&
		  two->piece[1].color == HIVE_BLACK);
	if (tb_replay_load(&r, &rq.state, err, sizeof err)) {
		fprintf(stderr, "mlp frame: %s\n", err);
		CU_FAIL_FATAL("mlp frame does not replay");
	}

	/* The history is the worked example's game: same moves, same GameString. */
	hive_game_init(&want, 0);
	CU_ASSERT_EQUAL_FATAL(hive_game_parse(&want, MLP_GAMESTRING, err, sizeof err), 0);
	CU_ASSERT_EQUAL(want.len, r.game.len);
	for (size_t i = 0; i < want.len && i < r.game.len; i++)
		CU_ASSERT(same_move(want.hist[i].move, r.game.hist[i].move));
	CU_ASSERT_EQUAL(want.board.hash, r.game.board.hash);
	hive_game_format(&r.game, gs, sizeof gs);
	char wantgs[1024];
	hive_game_format(&want, wantgs, sizeof wantgs);
	CU_ASSERT_STRING_EQUAL(gs, wantgs);
	hive_game_free(&want);

	/* The three worked translations. */
	struct tb_turn place = { .type = TB_PLACEMENT, .bug = HIVE_BEETLE, .dst = { -4, 0 } };
	struct tb_turn move = { .type = TB_MOVEMENT, .src = { -1, -1 }, .dst = { 3, -3 } };
	struct tb_turn throw = { .type = TB_ABILITY, .user = { 0, 0 }, .src = { -1, -1 }, .dst = { 1, 1 } };
	CU_ASSERT(tb_turns_has(&rq.state.possible, &place));
	CU_ASSERT(tb_turns_has(&rq.state.possible, &move));
	CU_ASSERT(tb_turns_has(&rq.state.possible, &throw));
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &place, &m, err, sizeof err), 0);
	CU_ASSERT(same_move(m, uhp(&r, "wB1 wP/")));
	CU_ASSERT_EQUAL(tb_replay_move_turn(&r, m, &t, err, sizeof err), 0);
	CU_ASSERT(tb_turn_eq(&t, &place));
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &move, &m, err, sizeof err), 0);
	CU_ASSERT(same_move(m, uhp(&r, "wA1 -bQ")));
	CU_ASSERT_EQUAL(tb_replay_answer(&r, &rq.state.possible, m, &t, err, sizeof err), 1);
	CU_ASSERT(tb_turn_eq(&t, &move));
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &throw, &m, err, sizeof err), 0);
	CU_ASSERT(same_move(m, uhp(&r, "wA1 bB1-")));
	/* Own piece thrown by the own mosquito: also a Movement, so sent as one. */
	CU_ASSERT_EQUAL(tb_replay_answer(&r, &rq.state.possible, m, &t, err, sizeof err), 1);
	CU_ASSERT_EQUAL(t.type, TB_MOVEMENT);

	/* The white queen to -3,-1 only by the pillbug: listed under Special Ability only. */
	m = uhp(&r, "wQ \\wP");
	CU_ASSERT_EQUAL(tb_replay_answer(&r, &rq.state.possible, m, &t, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not listed"));
	/* A stacked piece cannot be thrown; the pillbug of the wrong colour is refused. */
	struct tb_turn bad = { .type = TB_ABILITY, .user = { -2, 0 }, .src = { -3, 1 }, .dst = { -3, -1 } };
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &bad, &m, err, sizeof err), 0);
	bad.user = (struct tb_pos){ 0, 0 };   /* the mosquito is not next to -3,1 */
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &bad, &m, err, sizeof err), -1);

	/* Their list (bugs 5.2/5.4 aside) names exactly the core's moves here. */
	CU_ASSERT(possible_matches_core(&r, &rq.state.possible));
	/* Our own list for this position: the same moves; placements identical. */
	struct tb_turns ours = { 0 };
	CU_ASSERT_EQUAL(tb_replay_possible(&r, &ours, err, sizeof err), 0);
	CU_ASSERT(possible_matches_core(&r, &ours));
	for (size_t i = 0; i < rq.state.possible.n; i++)
		if (rq.state.possible.v[i].type == TB_PLACEMENT || rq.state.possible.v[i].type == TB_MOVEMENT)
			CU_ASSERT(tb_turns_has(&ours, &rq.state.possible.v[i]));
	tb_turns_free(&ours);

	/* The rebuilt game_state agrees with the frame's board and hands. */
	struct tb_state st;
	CU_ASSERT_EQUAL_FATAL(tb_replay_state(&r, &st, err, sizeof err), 0);
	CU_ASSERT_EQUAL(st.nstacks, rq.state.nstacks);
	CU_ASSERT_EQUAL(memcmp(st.hand, rq.state.hand, sizeof st.hand), 0);
	for (size_t i = 0; i < st.nstacks; i++) {
		int found = 0;
		for (size_t k = 0; k < rq.state.nstacks && !found; k++)
			found = tb_pos_eq(st.stack[i].pos, rq.state.stack[k].pos) &&
				st.stack[i].height == rq.state.stack[k].height &&
				!memcmp(st.stack[i].piece, rq.state.stack[k].piece,
					st.stack[i].height * sizeof st.stack[i].piece[0]);
		CU_ASSERT(found);
	}
	tb_state_free(&st);
	tb_replay_free(&r);
	tb_request_free(&rq);
}

/*
 * Framing.
 */

static void test_utf16_length(void)
{
	CU_ASSERT_EQUAL(tb_utf16_length("abc", 3), 3);
	CU_ASSERT_EQUAL(tb_utf16_length("\xC3\xA9", 2), 1);               /* e acute */
	CU_ASSERT_EQUAL(tb_utf16_length("\xE2\x82\xAC", 3), 1);           /* euro */
	CU_ASSERT_EQUAL(tb_utf16_length("\xF0\x9F\x90\x9D", 4), 2);       /* honeybee, astral */
	CU_ASSERT_EQUAL(tb_utf16_length("a\xF4\x8F\xBF\xBFz", 6), 4);     /* U+10FFFF */
	CU_ASSERT_EQUAL(tb_utf16_length("\xC0\x80", 2), (size_t)-1);      /* overlong */
	CU_ASSERT_EQUAL(tb_utf16_length("\xE0\x80\xAF", 3), (size_t)-1);  /* overlong */
	CU_ASSERT_EQUAL(tb_utf16_length("\xED\xA0\x80", 3), (size_t)-1);  /* surrogate */
	CU_ASSERT_EQUAL(tb_utf16_length("\xF4\x90\x80\x80", 4), (size_t)-1);
	CU_ASSERT_EQUAL(tb_utf16_length("\x80", 1), (size_t)-1);
	CU_ASSERT_EQUAL(tb_utf16_length("\xE2\x82", 2), (size_t)-1);      /* truncated */
	CU_ASSERT_EQUAL(tb_utf16_length("\xFF", 1), (size_t)-1);
}

/* A frame with the astral and BMP characters: N counts units, not bytes. */
static uint64_t rng(void);

/* Long frames of ASCII with UTF-8 sequences or a NUL at every alignment, pushed in
 * chunks of every size: the text comes back whole, a NUL fails (the reader takes
 * ASCII eight bytes at a time). */
static void test_reader_long(void)
{
	static const char *const odd[] = { "\xC3\xA9", "\xF0\x9F\x90\x9D", "\xE2\x82\xAC", "" };
	for (int it = 0; it < 400; it++) {
		char json[600], frame[640];
		size_t n = 0, at = (size_t)(rng() % 300);
		int kind = (int)(rng() % 5);       /* 0-2: UTF-8 at at, 3: none, 4: a NUL at at */
		while (n < 400) {
			if (n == at && kind < 3) {
				memcpy(json + n, odd[kind], strlen(odd[kind]));
				n += strlen(odd[kind]);
			} else {
				char c = n == at && kind == 4 ? '\0' : (char)('!' + rng() % 90);
				json[n++] = c;
			}
		}
		size_t units = kind == 4 ? n : tb_utf16_length(json, n);
		int hl = snprintf(frame, sizeof frame, "%zu#", units);
		memcpy(frame + hl, json, n);
		struct tb_reader r;
		struct frames fs = { .n = 0 };
		size_t chunk = 1 + (size_t)(rng() % 64), total = (size_t)hl + n;
		int rc = 0;
		tb_reader_init(&r, 0);
		for (size_t o = 0; o < total && rc == 0; o += chunk)
			rc = feed(&r, frame + o, o + chunk < total ? chunk : total - o, &fs);
		if (kind == 4) {
			CU_ASSERT(rc == -1 && strstr(tb_reader_error(&r), "NUL"));
		} else {
			CU_ASSERT(rc == 0 && fs.n == 1 && fs.len[0] == n && !memcmp(fs.text[0], json, n));
		}
		frames_free(&fs);
		tb_reader_free(&r);
	}
}

static void test_reader_utf16(void)
{
	/* {"author":"Bee 🐝 é"}: 24 bytes, 21 units. */
	const char json[] = "{\"author\":\"Bee \xF0\x9F\x90\x9D \xC3\xA9\"}";
	char frame[64];
	struct tb_reader r;
	struct frames fs = { .n = 0 };
	size_t units = tb_utf16_length(json, strlen(json));
	CU_ASSERT_EQUAL(units, strlen(json) - 3);
	snprintf(frame, sizeof frame, "%zu#%s", units, json);
	tb_reader_init(&r, 0);
	CU_ASSERT_EQUAL(feed(&r, frame, strlen(frame), &fs), 0);
	CU_ASSERT_EQUAL_FATAL(fs.n, 1);
	CU_ASSERT_STRING_EQUAL(fs.text[0], json);
	CU_ASSERT(tb_reader_idle(&r));
	frames_free(&fs);

	/* Counting bytes instead would leave the reader waiting for 3 more units. */
	snprintf(frame, sizeof frame, "%zu#%s", strlen(json), json);
	CU_ASSERT_EQUAL(feed(&r, frame, strlen(frame), &fs), 0);
	CU_ASSERT_EQUAL(fs.n, 0);
	CU_ASSERT(!tb_reader_idle(&r));
	tb_reader_reset(&r);

	/* N that ends between the two halves of the bee's surrogate pair. */
	snprintf(frame, sizeof frame, "16#%s", json);
	CU_ASSERT_EQUAL(feed(&r, frame, strlen(frame), &fs), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(tb_reader_error(&r), "surrogate"));
	tb_reader_reset(&r);

	/* Invalid UTF-8 in the payload. */
	static const char *const bad[] = { "5#{\"\xC0\x80\"}", "5#{\"\xED\xA0\x80\"}", "4#{\"\x80\"",
					   "5#{\"\xE2\x82\"}", "4#\"\xF5\x80\x80\x80\"" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(feed(&r, bad[i], strlen(bad[i]), &fs), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(tb_reader_error(&r), "invalid UTF-8"));
		/* Failed readers stay failed until reset. */
		size_t used;
		CU_ASSERT_EQUAL(tb_reader_push(&r, "2#{}", 4, &used), -1);
		tb_reader_reset(&r);
	}
	CU_ASSERT_EQUAL(fs.n, 0);
	tb_reader_free(&r);
}

static void test_writer_ascii(void)
{
	const char json[] = "{\"a\":\"Bee \xF0\x9F\x90\x9D \xC3\xA9\xE2\x82\xAC\"}";
	size_t len;
	char *frame = tb_frame_encode(json, strlen(json), &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(frame);
	CU_ASSERT_EQUAL(strlen(frame), len);
	for (size_t i = 0; i < len; i++)
		CU_ASSERT((unsigned char)frame[i] < 0x80);
	CU_ASSERT_PTR_NOT_NULL(strstr(frame, "\\ud83d\\udc1d"));
	CU_ASSERT_PTR_NOT_NULL(strstr(frame, "\\u00e9\\u20ac"));
	/* Header = bytes = units of what follows '#'. */
	char *hash = strchr(frame, '#');
	CU_ASSERT_PTR_NOT_NULL_FATAL(hash);
	CU_ASSERT_EQUAL(strtoul(frame, NULL, 10), strlen(hash + 1));
	/* And it reads back to the same string. */
	cJSON *j = cJSON_Parse(hash + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(j, "a")->valuestring, "Bee \xF0\x9F\x90\x9D \xC3\xA9\xE2\x82\xAC");
	cJSON_Delete(j);
	free(frame);
	CU_ASSERT_PTR_NULL(tb_frame_encode("\"\xC3\"", 3, &len));

	/* Builders never put an "error" key in a turn answer. */
	struct tb_turn t = { .type = TB_MOVEMENT, .src = { 0, 0 }, .dst = { 2, 0 } };
	cJSON *a = tb_turn_answer_json(&t, "abc", "g1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(a, "error"));
	frame = tb_frame_build(a, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(frame);
	CU_ASSERT_STRING_EQUAL(frame, "124#{\"turn_type\":\"Movement\",\"source\":\"0,0\",\"destination\":\"2,0\","
				      "\"response_type\":\"Choose Turn\",\"response_id\":\"abc\",\"game_id\":\"g1\"}");
	free(frame);
	cJSON_Delete(a);
}

/* All the real frames glued together, then split at every byte. */
static void test_reader_split(void)
{
	char *all = NULL, *json[NFRAMES];
	size_t total = 0, jlen[NFRAMES];
	for (size_t i = 0; i < NFRAMES; i++) {
		size_t n;
		char *raw = slurp(frame_files[i], &n);
		json[i] = frame_json(frame_files[i], &jlen[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(raw);
		CU_ASSERT_PTR_NOT_NULL_FATAL(json[i]);
		all = realloc(all, total + n);
		memcpy(all + total, raw, n);
		total += n;
		free(raw);
	}
	/* Glued, one push. */
	struct tb_reader r;
	struct frames fs = { .n = 0 };
	tb_reader_init(&r, 0);
	CU_ASSERT_EQUAL(feed(&r, all, total, &fs), 0);
	CU_ASSERT_EQUAL_FATAL(fs.n, (int)NFRAMES);
	for (size_t i = 0; i < NFRAMES; i++)
		CU_ASSERT(fs.len[i] == jlen[i] && !memcmp(fs.text[i], json[i], jlen[i]));
	frames_free(&fs);

	/* Two chunks, split at every byte boundary. */
	int bad = 0;
	for (size_t k = 0; k <= total; k++) {
		tb_reader_reset(&r);
		if (feed(&r, all, k, &fs) || feed(&r, all + k, total - k, &fs) || fs.n != (int)NFRAMES)
			bad++;
		else
			for (size_t i = 0; i < NFRAMES; i++)
				bad += fs.len[i] != jlen[i] || memcmp(fs.text[i], json[i], jlen[i]);
		frames_free(&fs);
	}
	CU_ASSERT_EQUAL(bad, 0);

	/* One byte at a time. */
	tb_reader_reset(&r);
	for (size_t k = 0; k < total; k++)
		CU_ASSERT_EQUAL(feed(&r, all + k, 1, &fs), 0);
	CU_ASSERT_EQUAL(fs.n, (int)NFRAMES);
	CU_ASSERT(tb_reader_idle(&r));
	frames_free(&fs);

	tb_reader_free(&r);
	free(all);
	for (size_t i = 0; i < NFRAMES; i++)
		free(json[i]);
}

static void test_reader_headers(void)
{
	struct tb_reader r;
	struct frames fs = { .n = 0 };
	static const char *const garbage[] = {
		"abc#{}", " 2#{}", "0x2#{}", "+2#{}", "#{}", "0#", "2 #{}", "2\n#{}", "-2#{}",
		"00000000000000000000002#{}"
	};
	tb_reader_init(&r, 100);
	for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
		CU_ASSERT_EQUAL(feed(&r, garbage[i], strlen(garbage[i]), &fs), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(tb_reader_error(&r), "frame header"));
		tb_reader_reset(&r);
	}
	/* Bounded N: at the limit it waits for data, beyond it fails at once. */
	CU_ASSERT_EQUAL(feed(&r, "100#", 4, &fs), 0);
	tb_reader_reset(&r);
	CU_ASSERT_EQUAL(feed(&r, "101#", 4, &fs), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(tb_reader_error(&r), "maximum"));
	tb_reader_reset(&r);
	CU_ASSERT_EQUAL(feed(&r, "99999999999999999999", 20, &fs), -1);
	tb_reader_free(&r);

	tb_reader_init(&r, 0);
	CU_ASSERT_EQUAL(feed(&r, "1048577#", 8, &fs), -1);
	tb_reader_reset(&r);
	/* A raw NUL cannot be in a JSON text; frames stay C strings. */
	CU_ASSERT_EQUAL(feed(&r, "4#{\"\0\"", 6, &fs), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(tb_reader_error(&r), "NUL"));
	tb_reader_reset(&r);
	/* A frame that fits after a reset: leading zeros are plain digits. */
	CU_ASSERT_EQUAL(feed(&r, "002#{}", 6, &fs), 0);
	CU_ASSERT_EQUAL(fs.n, 1);
	frames_free(&fs);
	tb_reader_free(&r);
}

/*
 * Messages.
 */

static void test_bad_messages(void)
{
	static const char *const reqs[] = {
		"{\"request_type\":\"Ping\"}",
		"{\"request_type\":\"Choose Turn\"}",
		"[1]",
		"{\"request_type\":\"Greetings\"} x",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{\"1,2\":"
		"[{\"color\":\"White\",\"type\":\"Beetle\"}]}},\"hands\":{},\"player_turn\":\"White\",\"turn_number\":0}}",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},\"hands\":"
		"{\"White\":{\"Beetle\":3}},\"player_turn\":\"White\",\"turn_number\":0}}",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},\"hands\":"
		"{\"White\":{\"Mosquito\":1}},\"player_turn\":\"White\",\"turn_number\":0}}",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},\"hands\":{},"
		"\"player_turn\":\"Red\",\"turn_number\":0}}",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},\"hands\":{},"
		"\"player_turn\":\"White\",\"turn_number\":0.5}}",
		"{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},\"hands\":{},"
		"\"player_turn\":\"White\",\"turn_number\":0,\"possible_turns\":{\"Movement\":{\"01,1\":[]}}}}",
	};
	struct tb_request rq;
	char err[TB_ERR_MAX];
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		err[0] = 0;
		CU_ASSERT_EQUAL(tb_request_parse(reqs[i], strlen(reqs[i]), &rq, err, sizeof err), -1);
		CU_ASSERT(err[0] != 0);
	}

	struct tb_response rs;
	const char *e = "{\"success\":false,\"error\":\"Error: Invalid content length supplied (abc) in: \"}";
	CU_ASSERT_EQUAL_FATAL(tb_response_parse(e, strlen(e), &rs, err, sizeof err), 0);
	CU_ASSERT_EQUAL(rs.type, TB_RESP_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(rs.error, "content length"));
	tb_response_free(&rs);
	const char *ok = "{\"turn_type\":\"Special Ability\",\"ability_user\":\"0,0\",\"source\":\"1,1\","
			 "\"destination\":\"2,0\",\"response_id\":\"x\"}";
	CU_ASSERT_EQUAL_FATAL(tb_response_parse(ok, strlen(ok), &rs, err, sizeof err), 0);
	CU_ASSERT_EQUAL(rs.type, TB_RESP_TURN);
	CU_ASSERT_EQUAL(rs.turn.type, TB_ABILITY);
	CU_ASSERT(rs.turn.src.row == 1 && rs.turn.src.col == 1 && rs.turn.dst.row == 2);
	tb_response_free(&rs);
	static const char *const answers[] = {
		"{\"turn_type\":\"Pass\"}", "{\"turn_type\":\"Placement\",\"piece_type\":\"Ant\",\"destination\":\"0,0\"}",
		"{\"turn_type\":\"Movement\",\"source\":\"0,0\"}", "{\"turn_type\":\"Movement\",\"source\":\"0, 0\","
		"\"destination\":\"2,0\"}", "{\"turn_type\":\"Movement\",\"source\":\"-0,0\",\"destination\":\"2,0\"}",
		"{\"response_type\":\"Choose Turn\"}"
	};
	for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++)
		CU_ASSERT_EQUAL(tb_response_parse(answers[i], strlen(answers[i]), &rs, err, sizeof err), -1);
}

/* cJSON takes every byte up to ' ' as whitespace: an id after a vertical tab, a form
 * feed or a control byte is read and echoed as its token, not refused as "out of memory"
 * (nor echoed with the byte in front). */
static void test_ids_after_other_space(void)
{
	static const char *const reqs[] = {
		"{\"request_type\":\"Greetings\",\v\"request_id\":\"abc\"}",
		"{\"request_type\":\"Greetings\",\"request_id\":\f\"abc\"}",
		"{\"request_type\":\"Greetings\",\"request_id\"\x01:\"abc\"\x1f}",
		"{\"request_type\":\"Greetings\",\"x\":1\v,\"request_id\":\"abc\"}",
	};
	struct tb_request rq;
	char err[TB_ERR_MAX];
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		err[0] = 0;
		int rc = tb_request_parse(reqs[i], strlen(reqs[i]), &rq, err, sizeof err);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc) {
			fprintf(stderr, "request %zu: %s\n", i, err);
			continue;
		}
		CU_ASSERT_STRING_EQUAL(rq.request_id, "abc");
		CU_ASSERT_STRING_EQUAL(rq.request_id_json, "\"abc\"");
		tb_request_free(&rq);
	}
}

/* An illegal history is an error naming the turn. */
static void test_illegal_history(void)
{
	struct tb_request rq;
	struct tb_replay r;
	char err[TB_ERR_MAX];
	CU_ASSERT_EQUAL_FATAL(load_request("choose-turn-mlp-stack-abilities.frame", &rq), 0);
	struct tb_turn keep = rq.state.history.v[4];
	/* The white pillbug placed next to a black piece. */
	rq.state.history.v[4].dst = (struct tb_pos){ 1, 1 };
	CU_ASSERT_EQUAL(tb_replay_load(&r, &rq.state, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "turn_history[4]"));
	rq.state.history.v[4] = keep;
	/* A queen on the first turn. */
	rq.state.history.v[0].bug = HIVE_QUEEN;
	CU_ASSERT_EQUAL(tb_replay_load(&r, &rq.state, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "turn_history[0]"));
	rq.state.history.v[0].bug = HIVE_MOSQUITO;
	/* A far position that aliases onto a real cell of the ring. */
	rq.state.history.v[1].dst = (struct tb_pos){ 2 - 64, 0 + 0 };
	CU_ASSERT_EQUAL(tb_replay_load(&r, &rq.state, err, sizeof err), -1);
	rq.state.history.v[1].dst = (struct tb_pos){ 2, 0 };
	/* A board that disagrees with the history. */
	rq.state.stack[0].piece[0].bug = HIVE_ANT;
	CU_ASSERT_EQUAL(tb_replay_load(&r, &rq.state, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "disagrees"));
	tb_request_free(&rq);
}

/* The first k turns of st's history played on a fresh game of the type. */
static int replay_first(struct tb_replay *r, unsigned type, const struct tb_state *st, size_t k)
{
	char err[TB_ERR_MAX];
	tb_replay_init(r, type);
	for (size_t i = 0; i < k; i++)
		if (tb_replay_play_turn(r, &st->history.v[i], err, sizeof err))
			return -1;
	return 0;
}

/* A kept game is reused only when the history extends it exactly; else the result
 * and the errors are tb_replay_load's. */
static void test_replay_sync(void)
{
	struct tb_request rq;
	struct tb_replay full, r;
	char err[TB_ERR_MAX], err2[TB_ERR_MAX];
	CU_ASSERT_EQUAL_FATAL(load_request("choose-turn-mlp-stack-abilities.frame", &rq), 0);
	size_t n = rq.state.history.n;
	CU_ASSERT_FATAL(n > 6);
	CU_ASSERT_EQUAL_FATAL(tb_replay_load(&full, &rq.state, err, sizeof err), 0);

	/* No game kept, a kept prefix of every length: the full replay's position. */
	CU_ASSERT_EQUAL(tb_replay_sync(&r, 0, &rq.state, err, sizeof err), 0);
	CU_ASSERT_EQUAL(r.game.board.hash, full.game.board.hash);
	tb_replay_free(&r);
	for (size_t k = 0; k <= n; k++) {
		CU_ASSERT_EQUAL_FATAL(replay_first(&r, rq.state.type, &rq.state, k), 0);
		CU_ASSERT_EQUAL(tb_replay_sync(&r, 1, &rq.state, err, sizeof err), 0);
		CU_ASSERT_EQUAL(r.game.board.hash, full.game.board.hash);
		CU_ASSERT_EQUAL(r.history.n, n);
		CU_ASSERT(!memcmp(r.pos, full.pos, sizeof r.pos));
		tb_replay_free(&r);
	}
	/* Another game (a turn differs), another game type, a longer game kept: replayed
	 * from the start. */
	struct tb_state other = rq.state;
	struct tb_turn *v = malloc(n * sizeof *v);
	CU_ASSERT_FATAL(v != NULL);
	memcpy(v, rq.state.history.v, n * sizeof *v);
	other.history.v = v;
	/* Black's first piece on another side of White's. */
	for (int d = 0; d < HIVE_DIRS && tb_pos_eq(v[1].dst, rq.state.history.v[1].dst); d++)
		v[1].dst = tb_pos_step(v[0].dst, d);
	CU_ASSERT_EQUAL_FATAL(replay_first(&r, rq.state.type, &other, 2), 0);
	CU_ASSERT_EQUAL(tb_replay_sync(&r, 1, &rq.state, err, sizeof err), 0);
	CU_ASSERT_EQUAL(r.game.board.hash, full.game.board.hash);
	tb_replay_free(&r);
	memcpy(v, rq.state.history.v, n * sizeof *v);
	CU_ASSERT_EQUAL_FATAL(replay_first(&r, 0, &rq.state, 0), 0);   /* Base */
	CU_ASSERT_EQUAL(tb_replay_sync(&r, 1, &rq.state, err, sizeof err), 0);
	CU_ASSERT_EQUAL(r.game.board.hash, full.game.board.hash);
	CU_ASSERT_EQUAL(r.game.type, rq.state.type);
	tb_replay_free(&r);
	tb_replay_free(&full);
	other.history.n = n - 2;
	CU_ASSERT_EQUAL_FATAL(replay_first(&r, rq.state.type, &rq.state, n), 0);
	CU_ASSERT_EQUAL(tb_replay_sync(&r, 1, &other, err, sizeof err), -1);   /* board disagrees */
	CU_ASSERT_EQUAL(tb_replay_load(&full, &other, err2, sizeof err2), -1);
	CU_ASSERT_STRING_EQUAL(err, err2);
	/* A bad new turn: tb_replay_load's error, and nothing is kept. */
	other.history.n = n;
	v[n - 1].dst = (struct tb_pos){ 100, 0 };
	CU_ASSERT_EQUAL_FATAL(replay_first(&r, rq.state.type, &rq.state, n - 2), 0);
	CU_ASSERT_EQUAL(tb_replay_sync(&r, 1, &other, err, sizeof err), -1);
	CU_ASSERT_EQUAL(tb_replay_load(&full, &other, err2, sizeof err2), -1);
	CU_ASSERT_STRING_EQUAL(err, err2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "turn_history["));
	free(v);
	tb_request_free(&rq);
}

static int states_equal(const struct tb_state *a, const struct tb_state *b)
{
	if (a->type != b->type || a->player != b->player || a->turn_number != b->turn_number ||
	    a->nstacks != b->nstacks || memcmp(a->hand, b->hand, sizeof a->hand) ||
	    a->history.n != b->history.n || a->possible.n != b->possible.n)
		return 0;
	for (size_t i = 0; i < a->nstacks; i++)
		if (!tb_pos_eq(a->stack[i].pos, b->stack[i].pos) || a->stack[i].height != b->stack[i].height ||
		    memcmp(a->stack[i].piece, b->stack[i].piece, a->stack[i].height * sizeof a->stack[i].piece[0]))
			return 0;
	for (size_t i = 0; i < a->history.n; i++)
		if (!tb_turn_eq(&a->history.v[i], &b->history.v[i]))
			return 0;
	for (size_t i = 0; i < a->possible.n; i++)
		if (!tb_turn_eq(&a->possible.v[i], &b->possible.v[i]))
			return 0;
	return 1;
}

static int opt_eq(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* What a request carries besides its game_state. */
static int requests_equal(const struct tb_request *a, const struct tb_request *b)
{
	return a->type == b->type && opt_eq(a->request_id, b->request_id) && opt_eq(a->game_id, b->game_id) &&
	       opt_eq(a->request_id_json, b->request_id_json) && opt_eq(a->game_id_json, b->game_id_json) &&
	       opt_eq(a->system_version, b->system_version) && a->request_timestamp == b->request_timestamp &&
	       a->response_deadline == b->response_deadline;
}

/* text with ins inserted at offset at (malloc'd); del bytes there dropped first. */
static char *splice(const char *text, size_t at, size_t del, const char *ins)
{
	size_t n = strlen(text), k = strlen(ins);
	char *o = malloc(n - del + k + 1);
	CU_ASSERT_FATAL(o != NULL);
	memcpy(o, text, at);
	memcpy(o + at, ins, k);
	strcpy(o + at + k, text + at + del);
	return o;
}

/* Parses text with the cache and without: same result, same error. */
static int parse_same(const char *text, struct tb_parse_cache *c, char *err, size_t errlen)
{
	struct tb_request a, b;
	char err2[TB_ERR_MAX];
	int ra = tb_request_parse_next(text, strlen(text), &a, c, err, errlen);
	int rb = tb_request_parse(text, strlen(text), &b, err2, sizeof err2);
	int same = ra == rb && (ra < 0 ? !strcmp(err, err2) : states_equal(&a.state, &b.state) &&
				requests_equal(&a, &b));
	if (!same)
		fprintf(stderr, "parse_same: %d/%d %s / %s\n", ra, rb, ra < 0 ? err : "", rb < 0 ? err2 : "");
	if (!ra)
		tb_request_free(&a);
	if (!rb)
		tb_request_free(&b);
	return same ? ra : -2;
}

/* A connection's requests parsed with the last history kept: what a full parse
 * gives, for good requests and bad ones. */
static void test_parse_next(void)
{
	struct tb_replay r;
	struct tb_parse_cache c = { 0 };
	char err[TB_ERR_MAX], *texts[40] = { 0 };
	int n = 0, cached = 0;

	tb_replay_init(&r, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	for (; n < 40 && !hive_game_over(&r.game.board); n++) {
		struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN, .request_id = "a", .game_id = "b" };
		struct hive_move moves[HIVE_MAX_MOVES];
		CU_ASSERT_EQUAL_FATAL(tb_replay_state(&r, &rq.state, err, sizeof err), 0);
		cJSON *j = tb_request_json(&rq);
		texts[n] = j ? cJSON_PrintUnformatted(j) : NULL;
		cJSON_Delete(j);
		tb_state_free(&rq.state);
		CU_ASSERT_FATAL(texts[n] != NULL);
		cached += c.turns.n > 0;
		CU_ASSERT_EQUAL(parse_same(texts[n], &c, err, sizeof err), 0);
		size_t nm = hive_board_moves(&r.game.board, moves);
		CU_ASSERT_EQUAL_FATAL(tb_replay_play(&r, moves[rng() % nm], err, sizeof err), 0);
	}
	CU_ASSERT(n >= 30 && cached >= n - 2);
	/* The same request again, an earlier one (another game), then bad ones after a
	 * good one: a trailing comma in turn_history, a bad new turn, a bad old turn. */
	CU_ASSERT_EQUAL(parse_same(texts[n - 1], &c, err, sizeof err), 0);
	CU_ASSERT_EQUAL(parse_same(texts[5], &c, err, sizeof err), 0);
	CU_ASSERT_EQUAL(parse_same(texts[20], &c, err, sizeof err), 0);
	for (int k = 0; k < 3; k++) {
		CU_ASSERT_EQUAL(parse_same(texts[20], &c, err, sizeof err), 0);
		const char *t = texts[21], *pt = strstr(t, ",\"possible_turns\"");
		CU_ASSERT_FATAL(pt != NULL);
		size_t at = (size_t)(pt - t) - 1;      /* turn_history's ']' */
		char *bad;
		if (k == 0) {
			bad = splice(t, at, 0, ",");
		} else {
			const char *tt = k == 1 ? t + at : strstr(t, "\"turn_history\"");
			while (k == 1 && strncmp(tt, "\"turn_type\":\"", 13))
				tt--;
			if (k == 2)
				tt = strstr(tt, "\"turn_type\":\"");
			bad = splice(t, (size_t)(tt - t) + 13, 1, "X");
		}
		CU_ASSERT_EQUAL(parse_same(bad, &c, err, sizeof err), -1);
		free(bad);
	}
	for (int i = 0; i < n; i++)
		cJSON_free(texts[i]);
	tb_parse_cache_free(&c);
	tb_replay_free(&r);
}

/*
 * tb_request_parse_next reads a request past the turn_history text it read before
 * (the connection's cache): the same result and error as tb_request_parse for good
 * requests, unusual but valid ones, and broken ones.
 */
static void test_parse_same(void)
{
	/* Valid members put right after a '{' (another key, a repeated one, odd values). */
	static const char *const members[] = {
		"\"x\":[1,-2.5e3,{\"a\":null},true,false,\"s\"],", "\"system_version\":\"2.1\",",
		"\"request_timestamp\":12,", "\"response_deadline\":0,", "\"request_timestamp\":1e3,",
		"\"request_timestamp\":-0,", "\"turn_number\":007,", "\"request_id\":\"a\\u0041\",",
		"\"game_id\":null,", "\"turn_history\":null,", "\"turn_history\":[],", "\"board\":{\"pieces\":{}},",
		"\"hands\":{},", "\"Forfeit\":true,", "\"Forfeit\":1,", "\"Placement\":null,", "\"Movement\":{},",
		"\"Special Ability\":null,", "\"possible_turns\":null,", "\"color\":\"Black\",", "\"type\":\"Beetle\",",
		"\"source\":7,", "\"destination\":\"0,0\",", "\"turn_type\":\"Forfeit\",", "\"use_pillbug\":false,",
		"\"use_mosquito\":null,", "\"White\":{\"Queen Bee\":1},", "\"Black\":{},", "\"piece_types\":[],",
		"\"positions\":[\"2,0\"],", "\"creation_parameters\":{\"use_ladybug\":true},", "\"pieces\":{},",
		"\"request_type\":\"Greetings\",", "\"k\":\"\\u00e9\",", "\"\\u0078\":1,", "\"d\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],",
		"\f\"f\":1,", "\"n\":12345678901234567890123456789012345678901234567890,",
	};
	static const char bytes[] = "{}[]\",:0123456789 -.eE+tfn\\\f\x01u";
	struct tb_replay r;
	struct tb_parse_cache c = { 0 };
	char err[TB_ERR_MAX], *texts[48] = { 0 };
	int n = 0, bad = 0, good = 0;
	size_t len;

	texts[n] = frame_json("choose-turn-mlp-stack-abilities.frame", &len);
	CU_ASSERT_FATAL(texts[n] != NULL);
	n++;
	tb_replay_init(&r, HIVE_EXP_M | HIVE_EXP_L | HIVE_EXP_P);
	for (; n < 48 && !hive_game_over(&r.game.board); n++) {
		struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN, .request_id = "a\"b", .game_id = "g",
					 .request_timestamp = 1795317225823, .response_deadline = 1795317235823 };
		struct hive_move moves[HIVE_MAX_MOVES];
		CU_ASSERT_EQUAL_FATAL(tb_replay_state(&r, &rq.state, err, sizeof err), 0);
		cJSON *j = tb_request_json(&rq);
		char *t = j ? cJSON_PrintUnformatted(j) : NULL;
		cJSON_Delete(j);
		tb_state_free(&rq.state);
		CU_ASSERT_FATAL(t != NULL);
		texts[n] = strdup(t);
		cJSON_free(t);
		size_t nm = hive_board_moves(&r.game.board, moves);
		CU_ASSERT_EQUAL_FATAL(tb_replay_play(&r, moves[rng() % nm], err, sizeof err), 0);
	}
	/* An unknown member whose value breaks off just before a "{}" a walk could go on
	 * from, at the start of each object: refused both ways, whichever walk meets it. */
	for (int k = 0; k < 2; k++)
		for (size_t at = 0; texts[k][at]; at++) {
			if (texts[k][at] != '{')
				continue;
			char *u = splice(texts[k], at + 1, 0, "\"zz\":[0{},");
			CU_ASSERT_EQUAL(parse_same(u, &c, err, sizeof err), -1);
			free(u);
		}
	for (int it = 0; it < 6000; it++) {
		/* A request, then the next one changed: the cache holds the first's history. */
		int i = 1 + (int)(rng() % (uint64_t)(n - 1));
		CU_ASSERT_EQUAL(parse_same(texts[rng() % 4 ? i - 1 : 0], &c, err, sizeof err), 0);
		char *t = strdup(texts[rng() % 8 ? i : 0]);
		for (int m = 0, nm = 1 + (int)(rng() % 2); m < nm; m++) {
			size_t tl = strlen(t), at = rng() % tl;
			char *u, one[2] = { bytes[rng() % (sizeof bytes - 1)], 0 };
			switch (rng() % 4) {
			case 0:           /* a member after some '{' */
				while (at < tl && t[at] != '{')
					at++;
				u = splice(t, at < tl ? at + 1 : 1, 0, members[rng() % (sizeof members / sizeof members[0])]);
				break;
			case 1:
				u = splice(t, at, 1, "");
				break;
			case 2:
				u = splice(t, at, 0, one);
				break;
			default:
				u = splice(t, at, 1, one);
			}
			free(t);
			t = u;
		}
		int rc = parse_same(t, &c, err, sizeof err);
		CU_ASSERT(rc != -2);
		if (rc == -2)
			fprintf(stderr, "parse_fast: differs on %s\n", t);
		bad += rc == -1;
		good += rc == 0;
		free(t);
	}
	/* Both kinds, many times each. */
	CU_ASSERT(bad > 1000 && good > 1000);
	for (int i = 0; i < n; i++)
		free(texts[i]);
	tb_parse_cache_free(&c);
	tb_replay_free(&r);
}

/* A connection keeps its last turn_history for the next request, but not a peer's
 * largest frame: after a 1 MB history (41,000 Forfeits) the cache holds far less
 * than the frame, and the request still parses as it does alone. */
static void test_parse_cache_bounded(void)
{
	static const char head[] = "{\"request_type\":\"Choose Turn\",\"game_state\":{\"board\":{\"pieces\":{}},"
				   "\"hands\":{},\"player_turn\":\"White\",\"turn_number\":0,\"turn_history\":[";
	static const char turn[] = "{\"turn_type\":\"Forfeit\"}", tail[] = "],\"possible_turns\":null}}";
	size_t k = 41000, cap = sizeof head + k * sizeof turn + sizeof tail, len = 0;
	char *req = malloc(cap), err[TB_ERR_MAX];
	CU_ASSERT_FATAL(req != NULL);
	len += (size_t)sprintf(req + len, "%s", head);
	for (size_t i = 0; i < k; i++)
		len += (size_t)sprintf(req + len, "%s%s", i ? "," : "", turn);
	len += (size_t)sprintf(req + len, "%s", tail);
	struct tb_parse_cache c = { 0 };
	struct tb_request a, b;
	for (int pass = 0; pass < 2; pass++) {
		CU_ASSERT_EQUAL_FATAL(tb_request_parse_next(req, len, &b, &c, err, sizeof err), 0);
		CU_ASSERT_EQUAL(b.state.history.n, k);
		tb_request_free(&b);
	}
	CU_ASSERT_EQUAL_FATAL(tb_request_parse(req, len, &a, err, sizeof err), 0);
	CU_ASSERT_EQUAL(a.state.history.n, k);
	tb_request_free(&a);
	size_t kept = c.cap + c.turns.cap * sizeof *c.turns.v;
	CU_ASSERT(kept < len / 4);
	if (kept >= len / 4)
		fprintf(stderr, "parse cache keeps %zu bytes after a %zu-byte request\n", kept, len);
	tb_parse_cache_free(&c);
	free(req);
}

/* The one JSON reader (trylobot_json.h): every escape, \uXXXX and surrogate pairs
 * decoded, JSON's number grammar, nesting bounded, the first of repeated keys. */
static int json_ok(const char *text)
{
	struct tb_json j = { 0 };
	char err[TB_ERR_MAX];
	int rc = tb_json_parse(&j, text, strlen(text), NULL, err, sizeof err);
	tb_json_free(&j);
	return rc == 0;
}

static void test_json_reader(void)
{
	static const char *const good[] = {
		"0", "-0", "1.5e-3", "12E+2", "-12.25", "1e400", "[]", "{}", " {\"a\" : [ 1 , 2 ] } ",
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\ud83d\\ude00\"", "\"\\u00e9\\uFFFF\"", "true", "null",
	};
	static const char *const bad[] = {
		"01", "1.", ".5", "+1", "1e", "-", "0x1", "tru", "nul", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"",
		"\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"a\x01\"", "\"open", "[1,]", "{\"a\":1,}", "{\"a\"}",
		"{1:2}", "[1 2]", "{} x", "", "[", "]",
	};
	char buf[64];
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		CU_ASSERT(json_ok(good[i]));
		if (!json_ok(good[i]))
			fprintf(stderr, "refused: %s\n", good[i]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT(!json_ok(bad[i]));
		if (json_ok(bad[i]))
			fprintf(stderr, "accepted: %s\n", bad[i]);
	}

	/* Nesting: TB_JSON_DEPTH levels are read, one more is refused. */
	char *deep = malloc(2 * TB_JSON_DEPTH + 3);
	CU_ASSERT_FATAL(deep != NULL);
	for (int extra = 0; extra < 2; extra++) {
		size_t n = TB_JSON_DEPTH + (size_t)extra;
		memset(deep, '[', n);
		memset(deep + n, ']', n);
		deep[2 * n] = 0;
		CU_ASSERT_EQUAL(json_ok(deep), !extra);
	}
	free(deep);

	/* Decoding: escapes, a surrogate pair to one 4-byte UTF-8 character, \u0000 ends. */
	struct tb_json j = { 0 };
	char err[TB_ERR_MAX];
	static const char obj[] = "{\"\\u0061\":\"x\\ty\\u00e9\\ud83d\\ude00\",\"a\":2,\"n\":-2.5e1,"
				  "\"z\":\"ab\\u0000cd\",\"list\":[1,[2,3],{\"k\":4}]}";
	CU_ASSERT_EQUAL_FATAL(tb_json_parse(&j, obj, strlen(obj), NULL, err, sizeof err), 0);
	size_t a = tb_json_member(&j, 0, "a"), n = tb_json_member(&j, 0, "n"), z = tb_json_member(&j, 0, "z");
	CU_ASSERT_FATAL(a != 0 && n != 0 && z != 0);
	CU_ASSERT_EQUAL(tb_json_str(&j, a, buf, sizeof buf), 0);
	CU_ASSERT_STRING_EQUAL(buf, "x\ty\xc3\xa9\xf0\x9f\x98\x80");     /* the first "a" */
	CU_ASSERT_EQUAL(tb_json_number(&j, n), -25.0);
	CU_ASSERT_EQUAL(tb_json_str(&j, z, buf, sizeof buf), 0);
	CU_ASSERT_STRING_EQUAL(buf, "ab");
	CU_ASSERT_EQUAL(tb_json_str(&j, a, buf, 4), -1);                  /* too long: cut */
	CU_ASSERT_STRING_EQUAL(buf, "x\ty");
	size_t list = tb_json_member(&j, 0, "list"), count = 0;
	CU_ASSERT_FATAL(list != 0 && j.tok[list].type == TB_JARRAY);
	TB_JSON_ELEMENTS(&j, list, e)
		count++;
	CU_ASSERT_EQUAL(count, 3);
	CU_ASSERT_EQUAL(tb_json_member(&j, 0, "missing"), 0);
	tb_json_free(&j);
}

/* Repeated turns in possible_turns: the first of each is kept, in its place, by both
 * parsers; a long list too (its table is not on the stack). */
static void test_possible_dedup(void)
{
	size_t len;
	char *text = frame_json("choose-turn-mlp-stack-abilities.frame", &len), err[TB_ERR_MAX];
	CU_ASSERT_FATAL(text != NULL);
	char *pt = strstr(text, "\"possible_turns\":");
	CU_ASSERT_FATAL(pt != NULL);
	*pt = 0;
	for (int big = 0; big < 2; big++) {
		char *pos = malloc(16 * 200 + 16), *req = malloc(strlen(text) + 20000);
		CU_ASSERT_FATAL(pos && req);
		size_t o = 0;
		for (int i = 0; i < (big ? 200 : 2); i++)   /* positions i,i and one repeat */
			o += (size_t)sprintf(pos + o, "%s\"%d,%d\"", i ? "," : "", 2 * i, 0);
		sprintf(pos + o, ",\"0,0\"");
		sprintf(req, "%s\"possible_turns\":{\"Placement\":{\"piece_types\":[\"Spider\",\"Beetle\",\"Spider\","
			"\"Soldier Ant\",\"Grasshopper\",\"Queen Bee\",\"Ladybug\",\"Mosquito\",\"Pillbug\"],"
			"\"positions\":[%s]},\"Movement\":{\"-1,-1\":[\"1,-1\",\"3,1\",\"1,-1\"],\"-1,-1\":[\"3,1\",\"5,1\"]},"
			"\"Special Ability\":{\"0,0\":{\"-1,-1\":[\"1,-1\",\"1,-1\"]},\"-2,0\":{\"-1,-1\":[\"1,-1\"]}}}}}",
			text, pos);
		struct tb_request a, b;
		struct tb_parse_cache c = { 0 };
		CU_ASSERT_EQUAL_FATAL(tb_request_parse(req, strlen(req), &a, err, sizeof err), 0);
		CU_ASSERT_EQUAL_FATAL(tb_request_parse_next(req, strlen(req), &b, &c, err, sizeof err), 0);
		size_t np = big ? 200 : 2, want = 8 * np + 3 + 2;
		CU_ASSERT_EQUAL(a.state.possible.n, want);
		CU_ASSERT(states_equal(&a.state, &b.state));
		const struct tb_turns *l = &a.state.possible;
		/* Spider at every position in order, then Beetle; Movement 1,-1 3,1 5,1; two throws. */
		CU_ASSERT(l->n == want && l->v[0].type == TB_PLACEMENT && l->v[0].bug == HIVE_SPIDER &&
			  l->v[np].bug == HIVE_BEETLE && l->v[8 * np].type == TB_MOVEMENT &&
			  l->v[8 * np + 2].dst.row == 5 && l->v[8 * np + 3].type == TB_ABILITY &&
			  l->v[8 * np + 4].user.row == -2);
		for (size_t i = 0; i + 1 < l->n; i++)
			for (size_t j = i + 1; j < l->n; j++)
				if (tb_turn_eq(&l->v[i], &l->v[j]))
					CU_FAIL("a repeated turn is left");
		tb_request_free(&a);
		tb_request_free(&b);
		tb_parse_cache_free(&c);
		free(pos);
		free(req);
	}
	free(text);
}

/*
 * Coordinates.
 */

static void test_coords(void)
{
	/* The notes' table: Trylobot offset -> core direction. */
	static const struct { int drow, dcol, dir; } table[] = {
		{ -2, 0, HIVE_NE }, { -1, 1, HIVE_E }, { 1, 1, HIVE_SE },
		{ 2, 0, HIVE_SW }, { 1, -1, HIVE_W }, { -1, -1, HIVE_NW }
	};
	struct tb_pos o = { 0, 0 };
	CU_ASSERT_EQUAL(tb_pos_cell(o), HIVE_ORIGIN);
	for (int i = 0; i < 6; i++) {
		struct tb_pos n = { table[i].drow, table[i].dcol };
		CU_ASSERT(tb_pos_eq(tb_pos_step(o, table[i].dir), n));
		CU_ASSERT_EQUAL(tb_pos_dir(o, n), table[i].dir);
		CU_ASSERT_EQUAL(tb_pos_cell(n), hive_cell_step(HIVE_ORIGIN, table[i].dir));
	}
	/* q = (col - row)/2, r = (col + row)/2 everywhere, and steps commute with cells. */
	for (int row = -40; row <= 40; row++)
		for (int col = -40; col <= 40; col++) {
			if ((row + col) & 1)
				continue;
			struct tb_pos p = { row, col };
			int q = (col - row) / 2, r = (col + row) / 2;
			CU_ASSERT_EQUAL(tb_pos_cell(p), (uint16_t)((HIVE_ORIGIN + q + 32 * r) & HIVE_CELL_MASK));
			for (int d = 0; d < HIVE_DIRS; d++) {
				struct tb_pos n = tb_pos_step(p, d);
				if (tb_pos_cell(n) != hive_cell_step(tb_pos_cell(p), d) || tb_pos_dir(n, p) != (d + 3) % 6)
					CU_FAIL("step and cell disagree");
			}
		}
	char buf[24];
	struct tb_pos p;
	CU_ASSERT_STRING_EQUAL(tb_pos_format((struct tb_pos){ -3, 1 }, buf, sizeof buf), "-3,1");
	CU_ASSERT_EQUAL(tb_pos_parse("-3,1", &p), 0);
	CU_ASSERT(p.row == -3 && p.col == 1);
	CU_ASSERT_EQUAL(tb_pos_parse("-3,2", &p), -1);
	CU_ASSERT_EQUAL(tb_pos_parse("+1,1", &p), -1);
	CU_ASSERT_EQUAL(tb_pos_parse("1,1 ", &p), -1);
	CU_ASSERT_EQUAL(tb_pos_parse("1,", &p), -1);
	CU_ASSERT_EQUAL(tb_pos_parse("10000000,0", &p), -1);

}

/*
 * Random games.
 */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Every piece's position maps back to its cell. */
static int positions_consistent(const struct tb_replay *r)
{
	const struct hive_board *b = &r->game.board;
	for (int p = 0; p < HIVE_PIECES; p++)
		if (b->pos[p] != HIVE_NOWHERE && tb_pos_cell(r->pos[p]) != b->pos[p])
			return 0;
	return 1;
}

static int max_height(const struct tb_replay *r)
{
	int h = 0;
	for (int c = 0; c < HIVE_CELLS; c++)
		h = r->game.board.height[c] > h ? r->game.board.height[c] : h;
	return h;
}

/* The whole request through JSON, the frame and back, replayed: same position,
 * same possible_turns. */
static int request_round_trip(const struct tb_replay *r, const struct tb_state *st)
{
	struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN, .request_id = "abcde", .game_id = "fghij",
				 .request_timestamp = 1795315913419LL };
	struct tb_request back;
	struct tb_replay again;
	struct tb_reader rd;
	char err[TB_ERR_MAX];
	size_t len, used, flen;
	int ok = 0;

	rq.state = *st;
	cJSON *j = tb_request_json(&rq);
	char *frame = j ? tb_frame_build(j, &len) : NULL;
	cJSON_Delete(j);
	if (!frame)
		return 0;
	tb_reader_init(&rd, 0);
	if (tb_reader_push(&rd, frame, len, &used) == 1 && used == len) {
		const char *json = tb_reader_frame(&rd, &flen);
		if (tb_request_parse(json, flen, &back, err, sizeof err) == 0) {
			if (tb_replay_load(&again, &back.state, err, sizeof err) == 0) {
				ok = again.game.board.hash == r->game.board.hash &&
				     back.state.possible.n == st->possible.n;
				for (size_t i = 0; ok && i < st->possible.n; i++)
					ok = tb_turns_has(&back.state.possible, &st->possible.v[i]);
				tb_replay_free(&again);
			}
			tb_request_free(&back);
		}
		if (!ok)
			fprintf(stderr, "request round trip: %s\n", err);
	}
	tb_reader_free(&rd);
	free(frame);
	return ok;
}

/* tb_turn_answer_frame against the cJSON path, with ids absent, plain, escaped and
 * non-ASCII (the raw tokens are echoed; non-ASCII goes out as \u escapes). */
static int answer_frame_same(const struct tb_turn *t)
{
	static const char *const ids[][2] = {
		{ NULL, NULL }, { "v0OX3", "\"v0OX3\"" }, { "a\"b", "\"a\\\"b\"" },
		{ "\xc3\xa9\xf0\x9f\x90\x9d", "\"\xc3\xa9\\u00e9\xf0\x9f\x90\x9d\"" },
	};
	/* One pair of ids per turn, at random: every pair over a game's turns. */
	int i = (int)(rng() % 4), k = (int)(rng() % 4);
	struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN };
	rq.request_id = (char *)ids[i][0];
	rq.request_id_json = (char *)ids[i][1];
	rq.game_id = (char *)ids[k][0];
	rq.game_id_json = (char *)ids[k][1];
	size_t la = 0, lb = 0;
	char *a = tb_turn_answer_frame(t, &rq, &la);
	cJSON *msg = tb_turn_answer_json(t, rq.request_id, rq.game_id);
	char *b = msg && !tb_echo_ids(msg, &rq) ? tb_frame_build(msg, &lb) : NULL;
	cJSON_Delete(msg);
	int ok = a && b && la == lb && !memcmp(a, b, la);
	if (!ok)
		fprintf(stderr, "answer frames differ:\n%s\n%s\n", a ? a : "(null)", b ? b : "(null)");
	free(a);
	free(b);
	return ok;
}

/* The sendable moves counted over every legal move, as the front end once did. */
static size_t sendable_by_moves(const struct tb_replay *r, const struct tb_turns *possible, struct tb_turn *t)
{
	struct hive_move moves[HIVE_MAX_MOVES];
	size_t n = hive_board_moves(&r->game.board, moves), count = 0;
	for (size_t i = 0; i < n; i++) {
		struct tb_turn cand;
		if (tb_replay_answer(r, possible, moves[i], &cand, NULL, 0) != 1)
			continue;
		if (!count)
			*t = cand;
		count++;
	}
	return count;
}

/* tb_replay_sendable (walking the listed turns) against every legal move, on the
 * position's list, on parts of it (down to one turn or none), and with turns the
 * position does not allow (far, on the wrong piece, a throw, a Forfeit). */
static int sendable_matches_moves(const struct tb_replay *r, const struct tb_turns *full)
{
	struct tb_turns l = { 0 };
	int ok = 1;
	for (int round = 0; round < 4 && ok; round++) {
		l.n = 0;
		for (size_t i = 0; i < full->n; i++)
			if (round == 0 || rng() % (uint64_t)(round == 1 ? 2 : full->n) == 0)
				CU_ASSERT_FATAL(tb_turns_add(&l, &full->v[i]) == 0);
		if (round == 3 && full->n) {
			struct tb_turn bogus[3] = { full->v[rng() % full->n], full->v[rng() % full->n],
						    { .type = TB_FORFEIT } };
			bogus[0].dst.row += 64;
			bogus[1].src = bogus[1].dst;
			for (int k = 0; k < 3; k++)
				if (!tb_turns_has(&l, &bogus[k]))
					CU_ASSERT_FATAL(tb_turns_add(&l, &bogus[k]) == 0);
		}
		struct tb_turn a, b;
		size_t want = sendable_by_moves(r, &l, &a), got = tb_replay_sendable(r, &l, &b, 2);
		size_t all = tb_replay_sendable(r, &l, &b, (size_t)-1);
		ok = got == (want < 2 ? want : 2) && all == want && (want != 1 || tb_turn_eq(&a, &b));
	}
	tb_turns_free(&l);
	return ok;
}

static void test_random_games(void)
{
	int games = 0, plies = 0, throws = 0, moves_checked = 0, trips = 0, stacked_trips = 0;
	int tallest = 0;
	for (unsigned type = 0; type < 8; type++) {
		for (int g = 0; g < 4; g++) {
			struct tb_replay r;
			char err[TB_ERR_MAX];
			int bad_turn = 0, bad_possible = 0, bad_pos = 0, bad_trip = 0, bad_sendable = 0;
			tb_replay_init(&r, type);
			for (int ply = 0; ply < 150 && !hive_game_over(&r.game.board); ply++) {
				struct hive_move moves[HIVE_MAX_MOVES];
				size_t n = hive_board_moves(&r.game.board, moves);
				for (size_t i = 0; i < n; i++) {
					struct tb_turn t;
					struct hive_move back;
					if (tb_replay_move_turn(&r, moves[i], &t, err, sizeof err) ||
					    tb_replay_turn_move(&r, &t, &back, err, sizeof err) ||
					    !same_move(back, moves[i])) {
						bad_turn++;
						fprintf(stderr, "type %u ply %d: %s\n", type, ply, err);
						continue;
					}
					bad_turn += !answer_frame_same(&t);
					/* Through the answer JSON too. */
					cJSON *j = tb_turn_answer_json(&t, NULL, NULL);
					char *text = j ? cJSON_PrintUnformatted(j) : NULL;
					struct tb_response rs;
					if (!text || tb_response_parse(text, strlen(text), &rs, err, sizeof err) ||
					    rs.type != TB_RESP_TURN || !tb_turn_eq(&rs.turn, &t))
						bad_turn++;
					else
						tb_response_free(&rs);
					cJSON_free(text);
					cJSON_Delete(j);
					throws += t.type == TB_ABILITY;
					moves_checked++;
				}
				struct tb_state st;
				if (tb_replay_state(&r, &st, err, sizeof err)) {
					bad_possible++;
				} else {
					if (!possible_matches_core(&r, &st.possible))
						bad_possible++;
					bad_sendable += !sendable_matches_moves(&r, &st.possible);
					/* The full request through the wire and back: every 10th
					 * ply, and often while stacks are on the board. */
					int high = max_height(&r);
					tallest = high > tallest ? high : tallest;
					if (ply % 10 == 9 || (high > 1 && ply % 3 == 0)) {
						stacked_trips += high > 1;
						bad_trip += !request_round_trip(&r, &st);
						trips++;
					}
					tb_state_free(&st);
				}
				struct hive_move m = moves[rng() % n];
				if (tb_replay_play(&r, m, err, sizeof err)) {
					fprintf(stderr, "play: %s\n", err);
					bad_turn++;
					break;
				}
				bad_pos += !positions_consistent(&r);
				plies++;
			}
			/* The same game from the core's record alone: same turns. */
			struct tb_replay fresh;
			if (tb_replay_from_game(&fresh, &r.game, err, sizeof err) == 0) {
				int same = fresh.history.n == r.history.n &&
					   fresh.game.board.hash == r.game.board.hash;
				for (size_t i = 0; same && i < r.history.n; i++)
					same = tb_turn_eq(&fresh.history.v[i], &r.history.v[i]);
				CU_ASSERT(same);
				tb_replay_free(&fresh);
			} else {
				CU_FAIL("tb_replay_from_game");
			}
			CU_ASSERT_EQUAL(bad_turn, 0);
			CU_ASSERT_EQUAL(bad_possible, 0);
			CU_ASSERT_EQUAL(bad_sendable, 0);
			CU_ASSERT_EQUAL(bad_pos, 0);
			CU_ASSERT_EQUAL(bad_trip, 0);
			tb_replay_free(&r);
			games++;
		}
	}
	printf("\n  %d games, %d plies, %d moves round-tripped (%d throws), %d requests"
	       " (%d with stacks, tallest %d)\n", games, plies, moves_checked, throws, trips,
	       stacked_trips, tallest);
	CU_ASSERT(stacked_trips > 0);
	CU_ASSERT(plies > 1000);
	CU_ASSERT(throws > 0);
}

/* Special Ability answers are never sendable; opponent throws map to them. */
/* A history that reaches HIVE_MAX_PLIES: the next turn is refused for its real cause
 * (the ply limit), not as a lack of memory. The two queens walk round each other. */
static void test_ply_limit(void)
{
	struct tb_replay r;
	char err[TB_ERR_MAX] = "";
	int bad = 0;
	tb_replay_init(&r, 0);
	for (int ply = 0; ply <= HIVE_MAX_PLIES && !bad; ply++) {
		struct hive_move moves[HIVE_MAX_MOVES], pick;
		size_t n = hive_board_moves(&r.game.board, moves);
		pick = moves[0];
		for (size_t i = 0; i < n; i++)
			if (moves[i].from != HIVE_NOWHERE || ply < 2) {
				pick = moves[i];
				break;
			}
		struct tb_turn t;
		if (tb_replay_move_turn(&r, pick, &t, err, sizeof err)) {
			bad = 1;
			break;
		}
		int rc = tb_replay_play_turn(&r, &t, err, sizeof err);
		if (ply < HIVE_MAX_PLIES)
			bad = rc != 0;
		else
			bad = rc == 0 || !strstr(err, "ply limit");
	}
	if (bad)
		fprintf(stderr, "ply limit: ply %d, %s\n", (int)r.game.board.ply, err);
	CU_ASSERT_FALSE(bad);
	CU_ASSERT_EQUAL(r.game.board.ply, HIVE_MAX_PLIES);
	CU_ASSERT_EQUAL(r.history.n, HIVE_MAX_PLIES);
	tb_replay_free(&r);
}

/* The back end's conversion: a turn that names a move becomes that move unchecked
 * (the engine interface checks it once); the checked one refuses what the core does. */
static void test_turn_candidate(void)
{
	struct tb_replay r;
	struct hive_move c, m, ws, bs;
	struct tb_turn t;
	char err[TB_ERR_MAX];

	tb_replay_init(&r, 0);
	ws = uhp(&r, "wS1");
	CU_ASSERT_EQUAL_FATAL(tb_replay_play(&r, ws, err, sizeof err), 0);
	bs = uhp(&r, "bS1 wS1-");
	CU_ASSERT_EQUAL_FATAL(tb_replay_play(&r, bs, err, sizeof err), 0);

	/* wS1 to a cell beside bS1 before White's queen is down: a move, not a legal one. */
	memset(&t, 0, sizeof t);
	t.type = TB_MOVEMENT;
	t.src = r.pos[ws.piece];
	for (int d = 0; d < HIVE_DIRS; d++) {
		t.dst = tb_pos_step(r.pos[bs.piece], d);
		if (!tb_pos_eq(t.dst, r.pos[ws.piece]))
			break;
	}
	CU_ASSERT_EQUAL(tb_replay_turn_candidate(&r, &t, &c, err, sizeof err), 0);
	CU_ASSERT_EQUAL(c.piece, ws.piece);
	CU_ASSERT_EQUAL(c.from, r.game.board.pos[ws.piece]);
	CU_ASSERT_FALSE(hive_board_find_move(&r.game.board, c, &m));
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &t, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ": illegal for White at turn 2"));

	/* A turn naming nothing: refused by both in the same words. */
	t.src = (struct tb_pos){ 40, 40 };
	CU_ASSERT_EQUAL(tb_replay_turn_candidate(&r, &t, &c, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no piece at the source"));
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &t, &m, err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no piece at the source"));

	/* A legal turn: the candidate is the core's move. */
	CU_ASSERT_EQUAL_FATAL(tb_replay_move_turn(&r, uhp(&r, "wQ -wS1"), &t, err, sizeof err), 0);
	CU_ASSERT_EQUAL(tb_replay_turn_candidate(&r, &t, &c, err, sizeof err), 0);
	CU_ASSERT_EQUAL(tb_replay_turn_move(&r, &t, &m, err, sizeof err), 0);
	CU_ASSERT(same_move(c, m));
	CU_ASSERT(same_move(m, uhp(&r, "wQ -wS1")));
	tb_replay_free(&r);
}

static void test_throws_not_sendable(void)
{
	int found = 0;
	for (int g = 0; g < 40 && found < 5; g++) {
		struct tb_replay r;
		char err[TB_ERR_MAX];
		tb_replay_init(&r, HIVE_EXP_P | HIVE_EXP_M);
		for (int ply = 0; ply < 200 && !hive_game_over(&r.game.board); ply++) {
			struct hive_move moves[HIVE_MAX_MOVES];
			size_t n = hive_board_moves(&r.game.board, moves);
			for (size_t i = 0; i < n; i++) {
				if (moves[i].piece == HIVE_PASS_PIECE ||
				    HIVE_PIECE_COLOR(moves[i].piece) == hive_side_to_move(&r.game.board))
					continue;
				struct tb_turn t;
				CU_ASSERT_EQUAL(tb_replay_answer(&r, NULL, moves[i], &t, err, sizeof err), 0);
				CU_ASSERT_EQUAL(t.type, TB_ABILITY);
				found++;
			}
			if (tb_replay_play(&r, moves[rng() % n], err, sizeof err))
				break;
		}
		tb_replay_free(&r);
	}
	CU_ASSERT(found > 0);
}

/*
 * --dump DIR: our messages as files for the schema check.
 */

static int write_json(const char *dir, const char *name, int n, cJSON *j)
{
	char path[1024];
	int rc = -1;
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	snprintf(path, sizeof path, "%s/%s.%d.json", dir, name, n);
	FILE *f = fopen(path, "w");
	if (f && text) {
		/* What goes on the wire: the ASCII-escaped text after the header. */
		size_t len;
		char *frame = tb_frame_encode(text, strlen(text), &len);
		if (frame) {
			fputs(strchr(frame, '#') + 1, f);
			rc = 0;
		}
		free(frame);
	}
	if (f && fclose(f))
		rc = -1;
	cJSON_free(text);
	cJSON_Delete(j);
	if (rc)
		fprintf(stderr, "cannot write %s\n", path);
	return rc;
}

static int dump(const char *dir)
{
	static const struct tb_identity me = {
		.name = "hivebridge", .long_name = "hivebridge \xE2\x80\x94 Hive engine", .version = "0.1.0",
		.description = "A Hive engine and protocol bridge", .author = "hivebridge",
		.project_url = "https://example.invalid/hivebridge"
	};
	int rc = 0, nreq = 0, nans = 0;
	char err[TB_ERR_MAX];
	rc |= write_json(dir, "greetings-request", 0, tb_greetings_request_json("4HiFC", "0.1.0"));
	rc |= write_json(dir, "greetings-response", 0, tb_greetings_answer_json(&me, "4HiFC"));
	rc |= write_json(dir, "error-frame", 0, tb_error_json("Error: Could not parse JSON"));
	for (unsigned type = 0; type < 8; type++) {
		struct tb_replay r;
		tb_replay_init(&r, type);
		for (int ply = 0; ply < 60 && !hive_game_over(&r.game.board); ply++) {
			struct hive_move moves[HIVE_MAX_MOVES];
			size_t n = hive_board_moves(&r.game.board, moves);
			struct hive_move m = moves[rng() % n];
			if (ply % 7 == 0 || ply < 2) {
				struct tb_request rq = { .type = TB_REQ_CHOOSE_TURN, .request_id = "abcde",
							 .game_id = "fghij", .request_timestamp = 1795315913419LL,
							 .response_deadline = ply % 2 ? 1795315923419LL : 0 };
				struct tb_turn t;
				if (tb_replay_state(&r, &rq.state, err, sizeof err))
					return -1;
				rc |= write_json(dir, "choose-turn-request", nreq++, tb_request_json(&rq));
				tb_state_free(&rq.state);
				if (tb_replay_answer(&r, NULL, m, &t, err, sizeof err) == 1)
					rc |= write_json(dir, "choose-turn-response", nans++,
							 tb_turn_answer_json(&t, "abcde", ply % 2 ? "fghij" : NULL));
			}
			if (tb_replay_play(&r, m, err, sizeof err))
				return -1;
		}
		tb_replay_free(&r);
	}
	struct tb_turn forfeit = { .type = TB_FORFEIT };
	rc |= write_json(dir, "choose-turn-response", nans++, tb_turn_answer_json(&forfeit, NULL, NULL));
	return rc ? -1 : 0;
}

/* "--dump DIR" makes the binary a tool for schemas.sh. */
static int trylobot_command(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2]) ? 1 : 0;
	return -1;
}

static const struct unit_test tests[] = {
	{ "greetings frames", test_greetings_frames },
	{ "first frame", test_first_frame },
	{ "forfeit frame", test_forfeit_frame },
	{ "mlp frame: history, worked translations", test_mlp_frame },
	{ "UTF-16 length", test_utf16_length },
	{ "reader counts UTF-16 units", test_reader_utf16 },
	{ "reader: long frames, any alignment", test_reader_long },
	{ "writer is ASCII", test_writer_ascii },
	{ "frames split and glued", test_reader_split },
	{ "bad headers, oversize", test_reader_headers },
	{ "bad messages", test_bad_messages },
	{ "ids after cJSON's other whitespace", test_ids_after_other_space },
	{ "illegal history", test_illegal_history },
	{ "replay kept between requests", test_replay_sync },
	{ "parse with the last history kept", test_parse_next },
	{ "parse cache bounded", test_parse_cache_bounded },
	{ "parse past the cached history: same as all of it", test_parse_same },
	{ "the JSON reader: escapes, numbers, nesting", test_json_reader },
	{ "possible_turns de-duplicated", test_possible_dedup },
	{ "coordinates", test_coords },
	{ "random games round trip", test_random_games },
	{ "turn candidates: converted, not checked", test_turn_candidate },
	{ "throws not sendable", test_throws_not_sendable },
	{ "a history at the ply limit", test_ply_limit },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "trylobot",
	.command = trylobot_command,
	.tests = tests,
};
