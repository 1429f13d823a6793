/*
 * game_record.c: refereed games as game records, and the PGN archive they are
 * appended to (see game_record.h).
 */
#include "bridge/game_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/referee.h"
#include "core/errbuf.h"

/* "+35/2 0.123s" or "0.123s". */
static void ply_comment(const struct game_record_plies *p, size_t i, char *buf, size_t len)
{
	uint64_t ms = p->times[i];
	int n = 0;
	if (p->evals && p->evals[i].depth > 0)
		n = snprintf(buf, len, "%+d/%d ", p->evals[i].score, p->evals[i].depth);
	snprintf(buf + n, len - (size_t)n, "%llu.%03llus", (unsigned long long)(ms / 1000),
		 (unsigned long long)(ms % 1000));
}

static int set_tag(struct hive_record *rec, const char *name, const char *value)
{
	return value ? hive_record_set_tag(rec, name, value) : 0;
}

int game_record_build(struct hive_record *rec, const struct hive_game *g, const struct game_record_tags *t,
		      const struct game_record_plies *plies, char *err, size_t errlen)
{
	char date[16], comment[64];
	time_t when = t->date ? t->date : time(NULL);
	struct tm tm;

	hive_record_init(rec, g->type);
	gmtime_r(&when, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	for (size_t i = 0; i < g->len; i++) {
		size_t k = plies ? i - plies->first : 0;
		int timed = plies && i >= plies->first && k < plies->n;
		if (timed)
			ply_comment(plies, k, comment, sizeof comment);
		/* The game's own moves, played again: only memory can fail. */
		if (hive_record_play(rec, g->hist[i].move, timed ? comment : NULL) != HIVE_OK)
			goto fail;
	}
	rec->result = t->result >= HIVE_DRAW ? t->result : HIVE_IN_PROGRESS;
	if (hive_record_set_tag(rec, "Date", date) < 0 || set_tag(rec, "Event", t->event) < 0 ||
	    set_tag(rec, "Site", t->site) < 0 || set_tag(rec, "Round", t->round) < 0 ||
	    set_tag(rec, "White", t->white) < 0 || set_tag(rec, "Black", t->black) < 0 ||
	    set_tag(rec, "Opening", t->opening) < 0 || set_tag(rec, "Termination", t->termination) < 0 ||
	    set_tag(rec, "TimeControl", t->time_control) < 0)
		goto fail;
	return 0;
fail:
	hive_record_free(rec);
	return errbuf_set(err, errlen, "cannot build the game's record: out of memory");
}

int game_record_from_referee(struct hive_record *rec, const struct referee *r, const struct game_record_tags *t,
			     char *err, size_t errlen)
{
	struct game_record_plies p;
	size_t nevals;

	p.first = referee_start_plies(r);
	p.times = referee_times(r, &p.n);
	p.evals = referee_evals(r, &nevals);
	return game_record_build(rec, referee_game(r), t, &p, err, errlen);
}

/* Seconds as PGN writes them: "60", "0.5". */
static int seconds(char *buf, size_t len, uint64_t ms)
{
	if (ms % 1000 == 0)
		return snprintf(buf, len, "%llu", (unsigned long long)(ms / 1000));
	char s[32];
	snprintf(s, sizeof s, "%llu.%03llu", (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000));
	size_t n = strlen(s);
	while (s[n - 1] == '0')
		s[--n] = 0;
	return snprintf(buf, len, "%s", s);
}

size_t game_record_time_control(const struct referee_seat *s, char *buf, size_t len)
{
	char a[32], b[32];
	if (s->clock_ms) {
		seconds(a, sizeof a, s->clock_ms);
		seconds(b, sizeof b, s->inc_ms);
		return (size_t)snprintf(buf, len, "%s+%s", a, b);
	}
	uint64_t ms = s->move_ms ? s->move_ms : s->movetime_ms;
	if (!ms)
		return 0;
	seconds(a, sizeof a, ms);
	return (size_t)snprintf(buf, len, "1/%s", a);
}

char *game_record_pgn(const struct hive_record *rec, size_t *len)
{
	size_t n = hive_record_write_pgn(rec, HIVE_PGN_MZINGA, NULL, 0);
	char *s = malloc(n + 2);
	if (!s)
		return NULL;
	hive_record_write_pgn(rec, HIVE_PGN_MZINGA, s, n + 1);
	s[n] = '\n';
	s[n + 1] = 0;
	*len = n + 1;
	return s;
}

/* Whether the file ends mid-line (a torn write): the next game then starts on a
 * line of its own, after a blank one, so that a reader loses only the torn game. */
static int ends_torn(int fd)
{
	struct stat st;
	char c;
	return fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n';
}

int game_record_append(const char *path, const struct hive_record *rec, char *err, size_t errlen)
{
	size_t len;
	char *text = game_record_pgn(rec, &len);
	if (!text)
		return errbuf_set(err, errlen, "%s: out of memory", path);
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && ends_torn(fd)) {
		char *t = malloc(len + 2);
		if (!t) {
			close(fd);
			free(text);
			return errbuf_set(err, errlen, "%s: out of memory", path);
		}
		memcpy(t, "\n\n", 2);
		memcpy(t + 2, text, len);
		free(text);
		text = t;
		len += 2;
	}
	ssize_t w = fd < 0 ? -1 : write(fd, text, len);
	int e = errno;
	/* One write: a short one (a full disk) leaves a torn game, which --resume cuts. */
	if (fd >= 0 && w == (ssize_t)len && fsync(fd) < 0)
		w = -1, e = errno;
	if (fd >= 0 && close(fd) < 0 && w == (ssize_t)len)
		w = -1, e = errno;
	free(text);
	if (w != (ssize_t)len)
		return errbuf_set(err, errlen, "%s: %s", path, w < 0 ? strerror(e) : "short write");
	return 0;
}

int game_record_append_referee(const char *path, const struct referee *r, const struct game_record_tags *t,
			       char *err, size_t errlen)
{
	struct hive_record rec;
	if (game_record_from_referee(&rec, r, t, err, errlen) < 0)
		return -1;
	int rc = game_record_append(path, &rec, err, errlen);
	hive_record_free(&rec);
	return rc;
}

int game_record_whole(const char *text, size_t len)
{
	static const char *const end[] = { "\nWhiteWins\n\n", "\nBlackWins\n\n", "\nDraw\n\n" };
	for (size_t i = 0; i < sizeof end / sizeof end[0]; i++) {
		size_t n = strlen(end[i]);
		if (len >= n && !memcmp(text + len - n, end[i], n))
			return 1;
	}
	return 0;
}
