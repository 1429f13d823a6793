/*
 * http_body.c: the JSON bodies of the API's POST routes, read into plain structs
 * with no socket and no state, so that tests/fuzz/fuzz_http_body.c feeds them the
 * very code the routes run. Each reader answers -1 (NULL) with the HTTP status and
 * why in err.
 */
#include <stdio.h>
#include <string.h>

#include "bridge/http/http_int.h"
#include "core/errbuf.h"

cJSON *body_parse(const char *buf, size_t n, int *status, char *err, size_t errlen)
{
	if (n > HTTP_MAX_BODY) {
		*status = 413;
		errbuf_set(err, errlen, "%s", "body too large");
		return NULL;
	}
	cJSON *o = n ? cJSON_ParseWithLength(buf, n) : cJSON_CreateObject();
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		*status = 400;
		errbuf_set(err, errlen, "%s", "the body must be a JSON object");
		return NULL;
	}
	return o;
}

const char *body_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int body_start(const cJSON *b, struct start_req *r, int *status, char *err, size_t errlen)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(b, "depth");
	const char *color = body_str(b, "color"), *type = body_str(b, "type");

	*status = 400;
	memset(r, 0, sizeof *r);
	r->engine = body_str(b, "engine");
	if (!r->engine)
		r->engine = "builtin";
	if (type && *type && hive_gametype_parse(type, &r->type) != 0) {
		errbuf_set(err, errlen, "%s", "bad game type");
		return -1;
	}
	r->human = HIVE_WHITE;
	if (color && !strcmp(color, "black"))
		r->human = HIVE_BLACK;
	else if (color && *color && strcmp(color, "white")) {
		errbuf_set(err, errlen, "%s", "color must be white or black");
		return -1;
	}
	/* Not a number: the default (1 s a move), as the page has always sent it. */
	double v = cJSON_IsNumber(d) ? d->valuedouble : 0;
	if (!(v >= 0 && v <= PLAY_MAX_DEPTH)) {
		errbuf_set(err, errlen, "%s", "depth must be 0..8");
		return -1;
	}
	r->depth = (int)v;
	return 0;
}

int body_need_str(const cJSON *b, const char *key, const char *want, const char **out, int *status,
		  char *err, size_t errlen)
{
	*out = body_str(b, key);
	if (!*out) {
		*status = 400;
		errbuf_set(err, errlen, "%s", want);
		return -1;
	}
	return 0;
}

int body_join(const cJSON *b, struct join_req *r, int *status, char *err, size_t errlen)
{
	const cJSON *jl = cJSON_GetObjectItemCaseSensitive(b, "lobby");
	const cJSON *jt = cJSON_GetObjectItemCaseSensitive(b, "type");
	const cJSON *jn = cJSON_GetObjectItemCaseSensitive(b, "name");

	*status = 400;
	memset(r, 0, sizeof *r);
	if (!cJSON_IsString(jl)) {
		errbuf_set(err, errlen, "%s", "want {\"lobby\": NAME, \"type\": GAMETYPE, \"name\": NAME}");
		return -1;
	}
	r->lobby = jl->valuestring;
	if (jt && !cJSON_IsNull(jt) && (!cJSON_IsString(jt) ||
					(*jt->valuestring && hive_gametype_parse(jt->valuestring, &r->type) != 0))) {
		errbuf_set(err, errlen, "%s", "bad game type");
		return -1;
	}
	if (jn && !cJSON_IsNull(jn) && !cJSON_IsString(jn)) {
		errbuf_set(err, errlen, "%s", "name must be a string");
		return -1;
	}
	/* The name goes into UHP lines and the results: letters, digits, - _ . only. */
	size_t n = 4;
	memcpy(r->name, "web:", 4);
	for (const char *p = cJSON_IsString(jn) ? jn->valuestring : ""; *p && n < 4 + WEB_NAME_MAX; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || *p == '.')
			r->name[n++] = *p;
	if (n == 4)
		n += (size_t)snprintf(r->name + 4, sizeof r->name - 4, "guest");
	r->name[n] = 0;
	return 0;
}
