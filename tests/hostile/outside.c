/* Tries to create a file at each path in argv; prints `wrote PATH` or `denied PATH`.
   Exit 0 when nothing was written. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int leaked = 0;
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd >= 0 && write(fd, "x", 1) == 1) { printf("wrote %s\n", argv[i]); leaked = 1; }
        else printf("denied %s\n", argv[i]);
        if (fd >= 0) close(fd);
    }
    return leaked;
}
