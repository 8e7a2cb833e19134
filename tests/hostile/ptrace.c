/* Tries to attach to its parent with ptrace. Exit 0 when refused. */
#include <stdio.h>
#include <sys/ptrace.h>
#include <unistd.h>
int main(void) {
    if (ptrace(PTRACE_ATTACH, getppid(), 0, 0) == 0) { printf("attached\n"); return 1; }
    perror("ptrace");
    return 0;
}
