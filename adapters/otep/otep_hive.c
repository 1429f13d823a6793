/*
 * otep_hive.c: OTEP messages to and from the core's game (see otep_hive.h).
 */
#include "adapters/otep/otep_hive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/errbuf.h"

enum otep_side otep_side_to_move(const struct hive_board *b)
{
	return hive_side_to_move(b) == HIVE_WHITE ? OTEP_WHITE : OTEP_BLACK;
}

enum otep_finish otep_finish_of(const struct hive_board *b)
{
	switch (b->state) {
	case HIVE_DRAW:        return OTEP_FINISH_DRAW;
	case HIVE_WHITE_WINS:  return OTEP_FINISH_WHITE;
	case HIVE_BLACK_WINS:  return OTEP_FINISH_BLACK;
	default:               return OTEP_FINISH_ABORTED;
	}
}

/* Whether the moves of list are the last plies of g. */
static int check_tail(const struct hive_game *g, const struct otep_moves *list, char *err,
		      size_t errlen)
{
	struct hive_game t;
	char why[256];
	int rc = 0;

	if (list->n > g->len)
		return errbuf_set(err, errlen, "the move list has %zu moves but the position only %zu",
				  list->n, g->len);
	if (list->n == 0)
		return 0;
	if (hive_game_copy(&t, g) != HIVE_OK)
		return errbuf_set(err, errlen, "out of memory");
	hive_game_undo(&t, list->n);
	for (size_t i = 0; i < list->n && rc == 0; i++) {
		struct hive_move mv;
		const struct hive_move *want = &g->hist[g->len - list->n + i].move;
		if (hive_move_parse(&t.board, list->moves[i], &mv, why, sizeof why) != HIVE_OK)
			rc = errbuf_set(err, errlen, "move '%s' of the list does not fit the position: %s",
					list->moves[i], why);
		else if (mv.piece != want->piece || mv.to != want->to)
			rc = errbuf_set(err, errlen, "move '%s' of the list is not the position's move %zu",
					list->moves[i], g->len - list->n + i + 1);
		else
			hive_game_play(&t, mv);
	}
	hive_game_free(&t);
	return rc;
}

int otep_game_from_msg(const struct otep_msg *m, struct hive_game *g, char *err, size_t errlen)
{
	struct hive_game t;
	unsigned type;

	if (m->from != OTEP_FROM_HOST || m->text == NULL)
		return errbuf_set(err, errlen, "'%s' from the engine describes no game", otep_cmd_name(m->cmd));
	switch (m->cmd) {
	case OTEP_RULES:
		if (hive_gametype_parse(m->text, &type) != 0)
			return errbuf_set(err, errlen, "'%s' is not a GameTypeString", m->text);
		hive_game_free(g);
		hive_game_init(g, type);
		return 0;
	case OTEP_POSITION:
	case OTEP_MOVE:
	case OTEP_OPPONENT_MOVE:
		break;
	default:
		return errbuf_set(err, errlen, "'%s' describes no game", otep_cmd_name(m->cmd));
	}
	hive_game_init(&t, 7);
	if (hive_game_parse(&t, m->text, err, errlen) != HIVE_OK) {
		hive_game_free(&t);
		return -1;
	}
	if (m->cmd == OTEP_OPPONENT_MOVE && m->nlines == 1 && check_tail(&t, &m->lines[0], err, errlen) < 0) {
		hive_game_free(&t);
		return -1;
	}
	hive_game_free(g);
	*g = t;
	return 0;
}

int otep_move_read(const struct hive_board *b, const char *movestring, struct hive_move *m,
		   char *err, size_t errlen)
{
	if (hive_move_parse(b, movestring, m, err, errlen) == HIVE_OK)
		return 0;
	return otep_move_fault(b, movestring, err, errlen);
}

int otep_move_fault(const struct hive_board *b, const char *movestring, char *err, size_t errlen)
{
	/* A piece of the other colour may move legally (thrown by a Pillbug); when it
	 * cannot, the engine played for the wrong side. */
	const char *s = movestring;
	while (*s == ' ')
		s++;
	int piece = hive_piece_parse(s, strcspn(s, " "));
	if (piece >= 0 && !hive_game_over(b) && HIVE_PIECE_COLOR(piece) != hive_side_to_move(b)) {
		errbuf_set(err, errlen, "%s is not a piece of %s, the side to move", hive_piece_name(piece),
			   otep_side_name(otep_side_to_move(b)));
		return OTEP_ERR_WRONG_SIDE;
	}
	return OTEP_ERR_ILLEGAL;
}

/* The canonical GameString of g, malloc'd (the caller frees), or NULL. */
static char *game_string(const struct hive_game *g)
{
	size_t n = hive_game_format(g, NULL, 0);
	char *s = malloc(n + 1);
	if (s != NULL)
		hive_game_format(g, s, n + 1);
	return s;
}

int otep_format_game_rules(char *buf, size_t len, const struct hive_game *g)
{
	return otep_format_rules(buf, len, hive_gametype_name(g->type));
}

int otep_format_game_position(char *buf, size_t len, const struct hive_game *g)
{
	char *s = game_string(g);
	int n = s != NULL ? otep_format_position(buf, len, s) : -1;
	free(s);
	return n;
}

int otep_format_game_move_result(char *buf, size_t len, const struct hive_game *g)
{
	char *s = game_string(g);
	int n = s != NULL ? otep_format_move_result(buf, len, s) : -1;
	free(s);
	return n;
}

int otep_format_game_opponent_move(char *buf, size_t len, const struct hive_game *g)
{
	char *s = game_string(g);
	if (s == NULL)
		return -1;
	/* The GameString's last field is the last move, written canonically. */
	const char *last = strrchr(s, ';');
	const char *moves[1] = { last != NULL ? last + 1 : "" };
	int n = otep_format_opponent_move(buf, len, moves, g->len > 0 ? 1 : 0, s);
	free(s);
	return n;
}
