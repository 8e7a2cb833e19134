/* Allocates and touches memory until something stops it. */
#include <stdlib.h>
int main(void) {
    for (;;) {
        volatile char *p = malloc(1 << 20);
        if (!p) return 3;
        /* Touch every page through a volatile pointer, so the compiler cannot drop it. */
        for (int i = 0; i < (1 << 20); i += 4096) p[i] = 1;
    }
}
