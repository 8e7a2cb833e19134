/* Writes to stderr forever. */
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'e', sizeof buf);
    for (;;) if (write(2, buf, sizeof buf) < 0) return 1;
}
