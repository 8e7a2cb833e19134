/* Four children each touch MB megabytes (argv[1]) and hold it: the tree's memory is their sum. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long mb = argc > 1 ? atol(argv[1]) : 48;
    int ready[2];
    pipe(ready);
    for (int i = 0; i < 4; i++) {
        if (fork() == 0) {
            volatile char *p = malloc(mb << 20);
            if (!p) return 3;
            /* Touch every page through a volatile pointer, so the compiler cannot drop it. */
            for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
            write(ready[1], "x", 1);
            sleep(1);
            return 0;
        }
    }
    char c;
    for (int i = 0; i < 4; i++) if (read(ready[0], &c, 1) != 1) return 4;
    int status, failed = 0;
    while (wait(&status) > 0) if (!WIFEXITED(status) || WEXITSTATUS(status)) failed = 1;
    return failed;
}
