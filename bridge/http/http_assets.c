/*
 * http_assets.c: the page (bridge/http/web/), compiled into the binary with the
 * assembler's .incbin, so the daemon needs no files at run time and the page is
 * always the one of its own version. Plain HTML, CSS and JavaScript: no build step.
 * (The GNUmakefile rebuilds this object when a file of web/ changes.)
 */
#include <string.h>

#include "bridge/http/http_int.h"

/* Each file between two symbols, with a NUL after it. */
#define ASSET_INCBIN(sym, file)                                              \
	__asm__(".section .rodata\n"                                          \
		".balign 16\n"                                                \
		".type hb_web_" #sym ", @object\n"                            \
		"hb_web_" #sym ":\n"                                          \
		".incbin \"" file "\"\n"                                      \
		"hb_web_" #sym "_end:\n"                                      \
		".byte 0\n"                                                   \
		".previous\n");                                               \
	extern const unsigned char hb_web_##sym[] __asm__("hb_web_" #sym);   \
	extern const unsigned char hb_web_##sym##_end[] __asm__("hb_web_" #sym "_end");

ASSET_INCBIN(index, "bridge/http/web/index.html")
ASSET_INCBIN(app, "bridge/http/web/app.js")
ASSET_INCBIN(board, "bridge/http/web/board.js")
ASSET_INCBIN(style, "bridge/http/web/style.css")

const struct http_asset *assets_find(const char *path)
{
	static struct http_asset table[] = {
		{ "/", "text/html; charset=utf-8", NULL, 0 },
		{ "/index.html", "text/html; charset=utf-8", NULL, 0 },
		{ "/app.js", "text/javascript; charset=utf-8", NULL, 0 },
		{ "/style.css", "text/css; charset=utf-8", NULL, 0 },
		{ "/board.js", "text/javascript; charset=utf-8", NULL, 0 },
	};
	if (!table[0].data) {
		table[0].data = table[1].data = hb_web_index;
		table[0].len = table[1].len = (size_t)(hb_web_index_end - hb_web_index);
		table[2].data = hb_web_app;
		table[2].len = (size_t)(hb_web_app_end - hb_web_app);
		table[3].data = hb_web_style;
		table[3].len = (size_t)(hb_web_style_end - hb_web_style);
		table[4].data = hb_web_board;
		table[4].len = (size_t)(hb_web_board_end - hb_web_board);
	}
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].path, path))
			return &table[i];
	return NULL;
}
