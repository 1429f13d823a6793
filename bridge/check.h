/*
 * check.h: `hivebridge check`, a conformance suite run against one engine.
 *
 *   hivebridge check [OPTIONS] -- CMD [ARGS...]      a UHP engine
 *   hivebridge check [OPTIONS] "CMD ARGS" | uhp:CMD [ARGS...]
 *   hivebridge check [OPTIONS] hub:CMD [ARGS...]     a Hub engine
 *   hivebridge check [OPTIONS] trylobot:HOST:PORT    a Trylobot AI module
 *   hivebridge check [OPTIONS] builtin               this binary's own `uhp` front end
 *   hivebridge check [OPTIONS] [--config FILE] --profile NAME
 *   OPTIONS: --json --timeout-ms N --time-margin-ms N --positions N --seed S
 *            --data DIR --log FILE --verbose
 *
 * A UHP engine is spawned by the checker, which talks raw UHP to it synchronously,
 * with a deadline on every read, so it sees the engine's exact bytes and never
 * hangs. A Hub engine or a Trylobot module is driven through the engine interface
 * (bridge/engine.h) on a private event loop, every wait under a deadline of the
 * checker's own; the UHP-only checks are skipped with the reason. Every check is
 * reported as PASS, FAIL or SKIP, with the protocol used; the exit status is 0 only
 * when every required check passes (1 otherwise, 2 on a usage error).
 */
#ifndef BRIDGE_CHECK_H
#define BRIDGE_CHECK_H

/* Entry point of the subcommand; argv[0] is "check". Prints the report on stdout. */
int check_main(int argc, char **argv);

#endif
