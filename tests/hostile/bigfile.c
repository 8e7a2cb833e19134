/* Writes an endless file in the working directory. */
#include <stdio.h>
#include <string.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'f', sizeof buf);
    FILE *f = fopen("big.txt", "w");
    if (!f) return 2;
    for (;;) if (fwrite(buf, 1, sizeof buf, f) != sizeof buf) return 1;
}
