/* Leaves a chain of folders argv[1] deep (default 30000) in its working directory, far past PATH_MAX,
   then exits 0: whatever removes the working directory afterwards must survive it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long depth = argc > 1 ? atol(argv[1]) : 30000;
    for (long i = 0; i < depth; i++) {
        if (mkdir("d", 0755) != 0 || chdir("d") != 0) { perror("mkdir"); return 1; }
    }
    printf("made %ld\n", depth);
    return 0;
}
