/*
 * check.h: `hivebridge check`, a UHP conformance suite run against one engine.
 *
 *   hivebridge check [--json] [--timeout-ms N] [--time-margin-ms N] [--positions N]
 *                    [--seed S] [--data DIR] [--verbose] -- CMD [ARGS...]
 *   hivebridge check [OPTIONS] "CMD ARGS"       (one string, split like a config command)
 *   hivebridge check [OPTIONS] builtin          (this binary's own `uhp` front end)
 *
 * The checker spawns the engine itself and talks raw UHP to it synchronously, with a
 * deadline on every read, so it sees the engine's exact bytes and never hangs. Every
 * check is reported as PASS, FAIL or SKIP; the exit status is 0 only when every
 * required check passes (1 otherwise, 2 on a usage error).
 */
#ifndef BRIDGE_CHECK_H
#define BRIDGE_CHECK_H

/* Entry point of the subcommand; argv[0] is "check". Prints the report on stdout. */
int check_main(int argc, char **argv);

#endif
