/*
 * match.h: `hivebridge match`, refereed games between two engines. The bridge is
 * the arbiter: one engine session per player, the canonical game (core) in the
 * middle, every move checked before it is played, clocks kept by the bridge.
 *
 *   hivebridge match [options] ENGINE_A ENGINE_B
 */
#ifndef BRIDGE_MATCH_H
#define BRIDGE_MATCH_H

/* Runs the subcommand; argv[0] is "match". Returns the process exit status:
 * 0 when the match ran to its end (or the SPRT decided), 1 on an error or an
 * interruption, 2 on bad usage. */
int match_main(int argc, char **argv);

/* `hivebridge worker --queue redis://HOST:PORT/NAME ...` (worker.c): plays the games
 * of a match --queue; argv[0] is "worker". Returns the exit status. */
int worker_main(int argc, char **argv);

/* `hivebridge tournament [options] ENGINE ENGINE...` (tournament.c): a round-robin
 * or a gauntlet, match's slots and referee over every pairing. */
int tournament_main(int argc, char **argv);

#endif
