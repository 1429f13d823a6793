/*
 * pipe_relay: the least a relay can do. Spawns COMMAND and copies bytes between a
 * client and the child's stdin/stdout, blocking in poll(). bench_relay puts it where
 * hivebridge would be, to measure what one extra process hop costs on the machine,
 * whatever the relay:
 *
 *   pipe_relay COMMAND [ARGS...]         the client is our stdin/stdout (pipes)
 *   pipe_relay --tcp COMMAND [ARGS...]   listens on 127.0.0.1 (a free port, said on
 *                                        stderr as "listening on 127.0.0.1:PORT", as
 *                                        the daemon says it), takes one connection,
 *                                        and relays it until either side ends
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The one client of --tcp, connected; -1 if listening or accepting fails. */
static int tcp_client(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof sa;
	int one = 1, fd, lfd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &len) < 0)
		return -1;
	fprintf(stderr, "listening on 127.0.0.1:%d\n", ntohs(sa.sin_port));
	fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

int main(int argc, char **argv)
{
	int to[2], from[2], in = 0, out = 1, cmd = 1;

	if (argc > 1 && !strcmp(argv[1], "--tcp"))
		cmd = 2;
	if (argc <= cmd || pipe(to) < 0 || pipe(from) < 0) {
		fprintf(stderr, "usage: pipe_relay [--tcp] COMMAND [ARGS...]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (cmd == 2 && (in = out = tcp_client()) < 0) {
		perror("pipe_relay");
		return 1;
	}
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
		if (cmd == 2)
			close(in);
		execvp(argv[cmd], argv + cmd);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	struct pollfd p[2] = { { in, POLLIN, 0 }, { from[0], POLLIN, 0 } };
	for (;;) {
		if (poll(p, 2, -1) < 0)
			break;
		if (p[0].revents && copy(in, to[1]) < 0)
			break;
		if (p[1].revents && copy(from[0], out) < 0)
			break;
	}
	close(to[1]);
	close(from[0]);
	waitpid(pid, NULL, 0);
	return 0;
}
