import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

// Virtual threads (Jdk25IT runs this on Java 25). Two virtual threads race on Dekker's flags: with "plain" the
// race is found, each event on the virtual thread that ran it (vA, vB), not its carrier; with "volatile" the
// twin is clean. Then MANY virtual threads are alive at once, each updating one shared counter (all on one
// stripe) and parking in a sleep: the run stays complete, in a small heap, with one carrier
// (-Djdk.virtualThreadScheduler.parallelism=1), so a thread parked while its log is full or while it holds a
// stripe cannot hang the others.
public class VirtualFlags {
    static int flag1;
    static int flag2;
    static volatile int vflag1;
    static volatile int vflag2;
    static volatile int seenA;
    static volatile int seenB;

    public static void main(String[] args) throws Exception {
        boolean plain = args[0].equals("plain");
        int many = Integer.parseInt(args[1]);
        Thread a = Thread.ofVirtual().name("vA").start(() -> {
            for (int i = 0; i < 2000; i++) {
                if (plain) {
                    flag1 = 1; // mmcheck:store
                    seenA = flag2; // mmcheck:access
                    flag1 = 0;
                } else {
                    vflag1 = 1;
                    seenA = vflag2;
                    vflag1 = 0;
                }
            }
        });
        Thread b = Thread.startVirtualThread(() -> {
            for (int i = 0; i < 2000; i++) {
                if (plain) {
                    flag2 = 1; // mmcheck:store
                    seenB = flag1; // mmcheck:access
                    flag2 = 0;
                } else {
                    vflag2 = 1;
                    seenB = vflag1;
                    vflag2 = 0;
                }
            }
        });
        a.join();
        b.join();
        AtomicLong sum = new AtomicLong();
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < many; i++) {
                ex.submit(() -> {
                    for (int k = 0; k < 100; k++) {
                        sum.incrementAndGet();
                    }
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        throw new RuntimeException(e);
                    }
                    for (int k = 0; k < 100; k++) {
                        sum.incrementAndGet();
                    }
                });
            }
        }
        System.out.println("VirtualFlags: done, " + sum.get() + " updates by " + many + " virtual threads");
    }
}
