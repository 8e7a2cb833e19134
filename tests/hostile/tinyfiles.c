/* Writes up to argv[1] (default 1,000,000) empty files in its working directory; on the first failure
   says why on stderr and exits 1. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    char name[32];
    for (long i = 0; i < n; i++) {
        snprintf(name, sizeof name, "f%ld", i);
        int fd = open(name, O_CREAT | O_WRONLY, 0644);
        if (fd < 0) { fprintf(stderr, "file %ld: ", i); perror("open"); return 1; }
        close(fd);
    }
    printf("made %ld\n", n);
    return 0;
}
