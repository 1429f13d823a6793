/*
 * convert.h: `hivebridge convert [--to pgn|hivegame|gamestring|json] FILE...`: game
 * records (PGN, BoardSpace SGF, GameString lines; told apart by content) converted,
 * one output per game, every move checked by the core.
 */
#ifndef BRIDGE_CONVERT_H
#define BRIDGE_CONVERT_H

int convert_main(int argc, char **argv);

#endif
