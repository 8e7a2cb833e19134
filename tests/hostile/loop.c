/* An infinite loop: must end as a CPU time limit. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;) n++;
}
