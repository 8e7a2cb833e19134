/* Sleeps without using CPU: must end as a wall-time limit. */
#include <unistd.h>
int main(void) { sleep(1000); return 0; }
