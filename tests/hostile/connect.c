/* Connects to each IPv4 ADDRESS:PORT in argv; prints `connected` or `refused` per address.
   Exit 0 when no connection was made. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int leaked = 0;
    for (int i = 1; i < argc; i++) {
        char host[64];
        snprintf(host, sizeof host, "%s", argv[i]);
        char *colon = strchr(host, ':');
        if (!colon) return 2;
        *colon = 0;
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_port = htons(atoi(colon + 1));
        inet_pton(AF_INET, host, &a.sin_addr);
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0) { printf("connected %s\n", argv[i]); leaked = 1; }
        else printf("refused %s\n", argv[i]);
        if (s >= 0) close(s);
    }
    return leaked;
}
