/* Kills its parent and then every process it may signal, then reports that it survived. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    kill(getppid(), SIGKILL);
    kill(-1, SIGKILL);
    printf("still here\n");
    return 0;
}
