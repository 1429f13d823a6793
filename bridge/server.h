/*
 * server.h: the daemon. Listens on the configured addresses and runs one protocol
 * session per connection until SIGINT/SIGTERM.
 */
#ifndef BRIDGE_SERVER_H
#define BRIDGE_SERVER_H

struct config;

/* Runs the daemon on c (already loaded and overridden by flags) until SIGINT or
 * SIGTERM; returns 0 after a clean shutdown, -1 (with a message on stderr) if it
 * could not start. c stays owned by the caller. */
int server_run(struct config *c);

#endif
