/* Tries to get its capabilities back with a new user namespace, then to mount. Exit 0 when refused. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
int main(void) {
    int leaked = 0;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) { printf("unshared\n"); leaked = 1; }
    if (mount("none", "/tmp", "tmpfs", 0, 0) == 0) { printf("mounted\n"); leaked = 1; }
    return leaked;
}
