// A well-behaved Java program: must run normally under the sandbox.
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello from java " + Runtime.getRuntime().availableProcessors());
    }
}
