/*
 * record_file.h: a file of game records (PGN, BoardSpace SGF or GameString lines,
 * told apart by content) read whole, bounded, into checked games: what `convert`,
 * `perft --game FILE`, `check --positions-from FILE` and `match --openings FILE` read.
 */
#ifndef BRIDGE_RECORD_FILE_H
#define BRIDGE_RECORD_FILE_H

#include <stddef.h>
#include "core/record.h"

/* Reads every game of the file at path ("-": standard input) into a new array of *n
 * records (free with hive_records_free). -1 with a sentence that names the file, and
 * the game, the ply and the line of the first move that is illegal or unreadable. */
int record_file_read(const char *path, struct hive_record **v, size_t *n, char *err, size_t errlen);

#endif
