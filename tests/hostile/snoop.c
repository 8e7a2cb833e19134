/* Tries to read every path in argv; prints `read PATH` for each it could read, `denied PATH` otherwise.
   Never prints contents. Exit 0 when nothing could be read. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int leaked = 0;
    for (int i = 1; i < argc; i++) {
        char buf[64];
        int fd = open(argv[i], O_RDONLY);
        if (fd >= 0 && read(fd, buf, sizeof buf) >= 0) { printf("read %s\n", argv[i]); leaked = 1; }
        else printf("denied %s\n", argv[i]);
        if (fd >= 0) close(fd);
    }
    return leaked;
}
