/*
 * pipe_relay: the least a relay can do. Spawns argv[1..] and copies bytes between
 * its own stdin/stdout and the child's, blocking in poll(). bench_relay uses it to
 * measure what one extra process hop costs on the machine, whatever the relay.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

static int copy(int from, int to)
{
	char buf[65536];
	ssize_t n = read(from, buf, sizeof buf);
	for (ssize_t off = 0; n > 0 && off < n;) {
		ssize_t w = write(to, buf + off, (size_t)(n - off));
		if (w <= 0)
			return -1;
		off += w;
	}
	return n > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int to[2], from[2];
	if (argc < 2 || pipe(to) < 0 || pipe(from) < 0) {
		fprintf(stderr, "usage: pipe_relay COMMAND [ARGS...]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	struct pollfd p[2] = { { 0, POLLIN, 0 }, { from[0], POLLIN, 0 } };
	for (;;) {
		if (poll(p, 2, -1) < 0)
			break;
		if (p[0].revents && copy(0, to[1]) < 0)
			break;
		if (p[1].revents && copy(from[0], 1) < 0)
			break;
	}
	close(to[1]);
	close(from[0]);
	waitpid(pid, NULL, 0);
	return 0;
}
