/*
 * uhp_connect: runs a UHP engine as a remote player (protocol uhp-player) for tests:
 * connects to 127.0.0.1:PORT, then execs CMD ARGS with the connection as its stdin
 * and stdout, so that the engine speaks to the server exactly as to a viewer.
 *
 *   uhp_connect PORT CMD [ARGS...]
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in sa;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: uhp_connect PORT CMD [ARGS...]\n");
		return 2;
	}
	long port = strtol(argv[1], &end, 10);
	if (*end || port <= 0 || port > 65535) {
		fprintf(stderr, "uhp_connect: bad port %s\n", argv[1]);
		return 2;
	}
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		perror("uhp_connect: connect");
		return 1;
	}
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0) {
		perror("uhp_connect: dup2");
		return 1;
	}
	if (fd > 1)
		close(fd);
	execvp(argv[2], argv + 2);
	perror("uhp_connect: exec");
	return 127;
}
