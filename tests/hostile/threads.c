/* Eight threads spinning: the CPU of every thread counts. */
#include <pthread.h>
static void *spin(void *arg) { volatile unsigned long n = 0; (void)arg; for (;;) n++; return 0; }
int main(void) {
    pthread_t t[8];
    for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, spin, 0);
    spin(0);
}
