/* Writes 1 GB to stdout. */
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'y', sizeof buf);
    for (long i = 0; i < (1L << 30) / (long)sizeof buf; i++)
        if (write(1, buf, sizeof buf) < 0) return 1;
    return 0;
}
