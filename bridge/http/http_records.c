/*
 * http_records.c: game records on the page. POST /api/records reads a pasted or
 * uploaded record (a GameString, PGN or BoardSpace SGF, told apart by content) with
 * the core's record codec and answers its games as JSON for the page to step through;
 * it keeps nothing (a review is the page's, not the server's). GET /api/archive lists
 * the games of the daemon's `[daemon] games` PGN archive, GET /api/archive/ID one of
 * them as the same JSON, /api/archive/ID.pgn its text as archived.
 *
 * The archive is the operator's file, but it is read as hostile all the same: a torn
 * or damaged game is skipped and said so, only the last ARCHIVE_READ_MAX bytes are
 * read, at most ARCHIVE_KEEP games (and ARCHIVE_KEEP_BYTES of them) are kept, the
 * newest, and a game over ARCHIVE_GAME_MAX bytes is skipped. The file is read at
 * start-up and again, from where it stopped, when a list is asked for and it grew (a
 * game finished since is appended to it by the referee), so an ID (the game's byte
 * offset in the file) stays the same across restarts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "bridge/http/http_int.h"
#include "bridge/log.h"
#include "core/errbuf.h"
#include "core/record.h"

#define RECORDS_MAX_GAMES  100                 /* games of one record answered */
#define ARCHIVE_READ_MAX   (8u << 20)          /* bytes of the archive read at once, its tail */
#define ARCHIVE_GAME_MAX   (256u << 10)        /* one archived game's text */
#define ARCHIVE_NOTES      5                   /* skipped games named in the log, a read */

/* --- records as JSON -------------------------------------------------------------- */

static const char *result_word(int state)
{
	return state == HIVE_WHITE_WINS ? "1-0" : state == HIVE_BLACK_WINS ? "0-1" :
		state == HIVE_DRAW ? "1/2-1/2" : NULL;
}

static void add_tag(cJSON *o, const char *key, const struct hive_record *r, const char *tag)
{
	const char *v = hive_record_tag(r, tag);
	if (v && *v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* What a record's game and an archive's list entry both say of a game. */
static void add_common(cJSON *o, const struct hive_record *r)
{
	const char *res = result_word(r->result);
	cJSON_AddStringToObject(o, "type", hive_gametype_name(r->game.type));
	add_tag(o, "white", r, "White");
	add_tag(o, "black", r, "Black");
	add_tag(o, "date", r, "Date");
	add_tag(o, "event", r, "Event");
	add_tag(o, "termination", r, "Termination");
	cJSON_AddNumberToObject(o, "plies", (double)r->game.len);
	if (res)
		cJSON_AddStringToObject(o, "result", res);
	else
		cJSON_AddNullToObject(o, "result");
}

/* One game of a record: its tags, result, moves and GameString (the page steps
 * through it with /api/position), and its last position. */
static cJSON *record_game_json(const struct hive_record *r, size_t index)
{
	cJSON *o = cJSON_CreateObject();
	size_t n = hive_game_format(&r->game, NULL, 0);
	char *gs = malloc(n + 1);

	if (!o || !gs) {
		cJSON_Delete(o);
		free(gs);
		return NULL;
	}
	hive_game_format(&r->game, gs, n + 1);
	cJSON_AddNumberToObject(o, "index", (double)index);
	cJSON_AddNumberToObject(o, "line", (double)r->line);
	add_common(o, r);
	add_tag(o, "site", r, "Site");
	cJSON *tags = cJSON_AddObjectToObject(o, "tags");
	for (size_t i = 0; tags && i < r->ntags; i++)
		cJSON_AddStringToObject(tags, r->tags[i].name, r->tags[i].value);
	cJSON_AddStringToObject(o, "gamestring", gs);
	free(gs);
	cJSON_AddItemToObject(o, "moves", pos_moves_json(&r->game));
	cJSON_AddItemToObject(o, "position", pos_json(&r->game, r->game.len));
	return o;
}

static const char *format_name(enum hive_record_format f)
{
	return f == HIVE_RECORD_PGN ? "pgn" : f == HIVE_RECORD_SGF ? "sgf" :
		f == HIVE_RECORD_GAMESTRING ? "gamestring" : "unknown";
}

cJSON *records_json(const char *text, size_t len, int *status, char *err, size_t errlen)
{
	struct hive_record *v;
	size_t n;

	*status = 422;
	if (hive_records_read(text, len, &v, &n, err, errlen) < 0)
		return NULL;
	cJSON *o = cJSON_CreateObject();
	cJSON *a = o ? cJSON_AddArrayToObject(o, "games") : NULL;
	for (size_t i = 0; a && i < n && i < RECORDS_MAX_GAMES; i++) {
		cJSON *g = record_game_json(&v[i], i + 1);
		if (!g) {
			cJSON_Delete(o);
			o = a = NULL;
			break;
		}
		cJSON_AddItemToArray(a, g);
	}
	if (o) {
		cJSON_AddStringToObject(o, "format", format_name(hive_record_detect(text, len)));
		cJSON_AddNumberToObject(o, "count", (double)n);
	}
	hive_records_free(v, n);
	if (!o) {
		*status = 500;
		errbuf_set(err, errlen, "out of memory");
	}
	return o;
}

void route_records(struct http_server *h, struct http_req *req)
{
	size_t n;
	const char *buf = http_req_body(req, &n);
	char err[512];
	int status;

	if (http_req_method(req) != HTTP_POST) {
		reply_error(req, 405, "POST only");
		return;
	}
	/* The transport let at most the records' limit in; the JSON around the text is
	 * the only other thing a body may hold. */
	cJSON *b = n ? cJSON_ParseWithLength(buf, n) : NULL;
	const char *text = cJSON_IsObject(b) ? body_str(b, "text") : NULL;
	if (!text) {
		cJSON_Delete(b);
		reply_error(req, 400, "want {\"text\": RECORD} (a GameString, PGN or BoardSpace SGF)");
		return;
	}
	cJSON *o = records_json(text, strlen(text), &status, err, sizeof err);
	cJSON_Delete(b);
	if (!o) {
		reply_error(req, status, err);
		return;
	}
	reply_json(req, 200, o);
	(void)h;
}

/* --- the archive ------------------------------------------------------------------ */

struct archived {
	long long   id;          /* its byte offset in the file */
	char       *text;        /* as archived (whole: its result and the blank line) */
	size_t      len;
	cJSON      *summary;
};

struct archive {
	char            *path;
	struct archived  games[ARCHIVE_KEEP];   /* oldest first */
	size_t           n, bytes;
	long long        off;                   /* read up to here: the next game's start */
	dev_t            dev;                   /* the file read (another one: read anew) */
	ino_t            ino;
	unsigned         skipped;               /* damaged or too large, since start-up */
};

static void archived_free(struct archived *g)
{
	free(g->text);
	cJSON_Delete(g->summary);
	memset(g, 0, sizeof *g);
}

/* The list's entry of one archived game. */
static cJSON *archived_summary(const struct hive_record *r, long long id)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "id", (double)id);
	add_common(o, r);
	return o;
}

/* A game skipped, said with its byte offset in the file (the codec's lines in why
 * count from that game's start). */
static void archive_skip(struct archive *a, unsigned *notes, long long id, const char *why)
{
	a->skipped++;
	if ((*notes)++ < ARCHIVE_NOTES)
		log_warn(0, "games %s: the game at byte %lld is skipped: %s", a->path, id, why);
}

/* Takes one game's text (s, len: from its first tag to before the next game) into
 * the list, dropping the oldest beyond the bounds; a game that does not read as one
 * whole game is skipped. */
static void archive_take(struct archive *a, const char *s, size_t len, long long id, unsigned *notes)
{
	struct hive_record *v;
	size_t n;
	char err[256];

	if (len > ARCHIVE_GAME_MAX) {
		archive_skip(a, notes, id, "larger than " "256 KiB");
		return;
	}
	if (hive_records_read(s, len, &v, &n, err, sizeof err) < 0) {
		archive_skip(a, notes, id, err);
		return;
	}
	if (n != 1) {
		hive_records_free(v, n);
		archive_skip(a, notes, id, "not one game");
		return;
	}
	struct archived g = { .id = id, .text = malloc(len + 1), .len = len,
			      .summary = archived_summary(&v[0], id) };
	hive_records_free(v, n);
	if (!g.text || !g.summary) {
		archived_free(&g);
		archive_skip(a, notes, id, "out of memory");
		return;
	}
	memcpy(g.text, s, len);
	g.text[len] = 0;
	while (a->n && (a->n == ARCHIVE_KEEP || a->bytes + len > ARCHIVE_KEEP_BYTES)) {
		a->bytes -= a->games[0].len;
		archived_free(&a->games[0]);
		memmove(&a->games[0], &a->games[1], --a->n * sizeof a->games[0]);
	}
	a->games[a->n++] = g;
	a->bytes += len;
}

/* Whether the line at s (up to end) is a PGN tag line. */
static int tag_line(const char *s, const char *end)
{
	return s < end && *s == '[';
}

/* Whether a game's text ends with its result on a line of its own (and the line's
 * end): what an archive's write ends with (game_record_whole), or a PGN file of
 * Mzinga's or hivegame.com's concatenated onto it. A torn write does not. */
static int ends_with_result(const char *s, size_t len)
{
	static const char *const words[] = { "WhiteWins", "BlackWins", "Draw", "1-0", "0-1", "1/2-1/2", "*" };
	if (!len || s[len - 1] != '\n')
		return 0;
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	size_t b = len;
	while (b && s[b - 1] != '\n')
		b--;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (len - b == strlen(words[i]) && !memcmp(s + b, words[i], len - b))
			return 1;
	return 0;
}

/* Splits buf (len bytes from file offset base) into games: each starts at a tag
 * line after a line that is not one (a game's moves or result, a blank line, or a
 * torn game's end). Only the last ARCHIVE_KEEP games are read (the list keeps no
 * more): the others are counted in *older. Returns the bytes used: a last game
 * without its result yet (a write under way, or torn) is left for the next read,
 * which takes it when the file has grown past it. */
static size_t archive_split(struct archive *a, const char *buf, size_t len, long long base,
			    unsigned *notes, size_t *older)
{
	const char *end = buf + len;
	size_t total = 0, used = len;

	for (int pass = 0; pass < 2; pass++) {
		const char *start = NULL, *p = buf;
		size_t k = 0;
		int prev_tag = 0;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *next = nl ? nl + 1 : end;
			int is_tag = tag_line(p, next);
			if (is_tag && !prev_tag) {
				if (start && pass && k + ARCHIVE_KEEP >= total)
					archive_take(a, start, (size_t)(p - start), base + (start - buf), notes);
				k += start != NULL;
				start = p;
			}
			prev_tag = is_tag;
			p = next;
		}
		if (!pass) {
			total = k;
			*older = total > ARCHIVE_KEEP ? total - ARCHIVE_KEEP : 0;
			continue;
		}
		if (start && ends_with_result(start, (size_t)(end - start)))
			archive_take(a, start, (size_t)(end - start), base + (start - buf), notes);
		else if (start)
			used = (size_t)(start - buf);
	}
	return used;
}

/* Reads what the file holds past a->off (its last ARCHIVE_READ_MAX bytes at most).
 * A file now shorter than what was read was replaced: it is read again whole. */
static void archive_read(struct archive *a, int first)
{
	struct stat st;
	unsigned notes = 0;
	int fd = open(a->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (first && errno != ENOENT)
			log_warn(0, "games %s: not listed on the page: %s", a->path,
				 fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return;
	}
	if (st.st_size < a->off || st.st_dev != a->dev || st.st_ino != a->ino) {
		/* Rotated or rewritten: read anew (the ids are offsets into this file). */
		for (size_t i = 0; i < a->n; i++)
			archived_free(&a->games[i]);
		a->n = a->bytes = 0;
		a->off = 0;
		a->dev = st.st_dev;
		a->ino = st.st_ino;
	}
	long long from = a->off, size = (long long)st.st_size;
	int cut = size - from > (long long)ARCHIVE_READ_MAX;
	if (cut)
		from = size - ARCHIVE_READ_MAX;
	size_t len = (size_t)(size - from);
	char *buf = len ? malloc(len) : NULL;
	ssize_t got = 0;
	while (buf && (size_t)got < len) {
		ssize_t r = pread(fd, buf + got, len - (size_t)got, from + got);
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	if (!len)
		return;
	if (!buf || (size_t)got != len) {
		log_warn(0, "games %s: cannot read it: %s", a->path, buf ? strerror(errno) : "out of memory");
		free(buf);
		return;
	}
	size_t skip = 0;
	if (cut) {
		/* Begins mid-file: from the first game that starts after the cut. */
		const char *p = buf;
		while (p < buf + len && !(p[0] == '[' && p > buf && p[-1] == '\n' && (p < buf + 2 || p[-2] == '\n')))
			p++;
		skip = (size_t)(p - buf);
		log_warn(0, "games %s: %lld bytes unread: only its last %u bytes are read", a->path,
			 from + (long long)skip - a->off, ARCHIVE_READ_MAX);
	}
	unsigned before = a->skipped;
	size_t older = 0;
	size_t used = archive_split(a, buf + skip, len - skip, from + (long long)skip, &notes, &older);
	if (older)
		log_note(0, "games %s: %zu older games not read (the page lists the newest %d)", a->path,
			 older, ARCHIVE_KEEP);
	a->off = from + (long long)(skip + used);
	free(buf);
	if (first && skip + used < len)
		log_warn(0, "games %s: its last game has no result line (torn, or being written): "
			 "not listed until more is appended", a->path);
	if (a->skipped > before)
		log_warn(0, "games %s: %zu games listed on the page, %u skipped (damaged, torn or over "
			 "256 KiB)", a->path, a->n, a->skipped - before);
	else if (first)
		log_note(0, "games %s: %zu games listed on the page", a->path, a->n);
}

struct archive *archive_new(const char *path)
{
	struct archive *a = calloc(1, sizeof *a);
	if (!a || !(a->path = strdup(path))) {
		free(a);
		return NULL;
	}
	return a;
}

struct archive *archive_open(const char *path)
{
	struct archive *a = archive_new(path);
	if (a)
		archive_read(a, 1);
	return a;
}

size_t archive_feed(struct archive *a, const char *buf, size_t len, long long base)
{
	unsigned notes = ARCHIVE_NOTES;   /* quiet: counted, not logged */
	size_t older;
	return archive_split(a, buf, len, base, &notes, &older);
}

size_t archive_games(const struct archive *a, size_t *bytes, unsigned *skipped)
{
	*bytes = a->bytes;
	*skipped = a->skipped;
	return a->n;
}

void archive_free(struct archive *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		archived_free(&a->games[i]);
	free(a->path);
	free(a);
}

static const struct archived *archive_find(const struct archive *a, long long id)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->games[i].id == id)
			return &a->games[i];
	return NULL;
}

/* GET /api/archive, /api/archive/ID, /api/archive/ID.pgn (rest: after "archive"). */
void route_archive(struct http_server *h, struct http_req *req, const char *rest)
{
	struct archive *a = h->archive;
	if (http_req_method(req) != HTTP_GET && http_req_method(req) != HTTP_HEAD) {
		reply_error(req, 405, "GET only");
		return;
	}
	if (!*rest) {
		cJSON *o = cJSON_CreateObject();
		cJSON *l = o ? cJSON_AddArrayToObject(o, "games") : NULL;
		if (a)
			archive_read(a, 0);
		/* Newest first, like /api/games. */
		for (size_t i = a ? a->n : 0; l && i-- > 0;)
			cJSON_AddItemToArray(l, cJSON_Duplicate(a->games[i].summary, 1));
		if (o) {
			cJSON_AddBoolToObject(o, "configured", a != NULL);
			cJSON_AddNumberToObject(o, "skipped", a ? a->skipped : 0);
		}
		reply_json(req, 200, o);
		return;
	}
	char *end;
	errno = 0;
	long long id = rest[0] == '/' && rest[1] >= '0' && rest[1] <= '9' ? strtoll(rest + 1, &end, 10) : -1;
	const struct archived *g = id >= 0 && !errno && (!*end || !strcmp(end, ".pgn")) && a ?
		archive_find(a, id) : NULL;
	if (!g) {
		reply_error(req, 404, "no such archived game");
		return;
	}
	if (*end) {
		char name[64];
		snprintf(name, sizeof name, "hivebridge-archive-%lld.pgn", g->id);
		reply_pgn_text(req, g->text, g->len, name);
		return;
	}
	int status;
	char err[512];
	cJSON *o = records_json(g->text, g->len, &status, err, sizeof err);
	if (!o) {
		reply_error(req, status == 422 ? 500 : status, err);
		return;
	}
	cJSON_AddNumberToObject(o, "id", (double)g->id);
	reply_json(req, 200, o);
}
