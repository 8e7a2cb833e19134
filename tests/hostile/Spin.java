// Four threads spinning in the JVM: the CPU of every thread counts.
public class Spin {
    public static void main(String[] args) {
        for (int i = 0; i < 4; i++) {
            new Thread(() -> { long n = 0; while (true) { n++; } }).start();
        }
    }
}
