// Dekker's flags in Java 25 class files (JDK25IT compiles this with javac --release 25): a record, a
// switch with patterns and an unnamed variable, so the agent instruments what only new compilers emit.
public class Flags25 {

    record Pair(int first, int second) {
    }

    static int flag1;
    static int flag2;

    static String describe(Object o) {
        return switch (o) {
            case Pair(int a, int _) when a > 0 -> "raised";
            case Pair _ -> "lowered";
            default -> "?";
        };
    }

    public static void main(String[] args) throws Exception {
        Thread a = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                flag1 = 1;
                describe(new Pair(flag2, 0));
                flag1 = 0;
            }
        });
        Thread b = new Thread(() -> {
            for (int i = 0; i < 2000; i++) {
                flag2 = 1;
                describe(new Pair(flag1, 0));
                flag2 = 0;
            }
        });
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("Flags25: done on Java " + Runtime.version().feature());
    }
}
