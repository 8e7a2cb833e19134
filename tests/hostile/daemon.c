/* Leaves a daemon behind: fork, setsid, fork again; the grandchild sleeps, then writes `alive` in the
   working directory. The main process exits at once. */
#include <fcntl.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            close(0); close(1); close(2);
            sleep(1);
            int fd = open("alive", O_CREAT | O_WRONLY, 0644);
            if (fd >= 0) close(fd);
            sleep(60);
        }
        return 0;
    }
    return 0;
}
