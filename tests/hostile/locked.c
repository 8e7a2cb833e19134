/* Leaves folders it made unreadable and unwritable (mode 000 and 500), with files inside, then exits 0. */
#include <stdio.h>
#include <sys/stat.h>
int main(void) {
    if (mkdir("locked", 0755) || mkdir("locked/inner", 0755) || mkdir("readonly", 0755)) { perror("mkdir"); return 1; }
    FILE *f = fopen("locked/inner/f", "w"), *g = fopen("readonly/g", "w");
    if (!f || !g) { perror("fopen"); return 1; }
    fclose(f); fclose(g);
    if (chmod("locked/inner", 0) || chmod("locked", 0) || chmod("readonly", 0500)) { perror("chmod"); return 1; }
    printf("locked\n");
    return 0;
}
