package dev.mmcheck.samples;

import java.util.concurrent.ConcurrentHashMap;

/**
 * S30 — publication through a ConcurrentHashMap: a writer fills an object's plain fields and puts it in
 * the map; a reader spins on {@code get} until it finds the object and reads the fields. Clean: the
 * map's specification makes the put happen-before a get that sees it, and on TSO and PSO the put's
 * atomic update commits the fields before the object can be found. The reader's {@code get} is what
 * orders its reads after the put: logged as nothing (a model tried for reads of a ConcurrentHashMap), the
 * checker's merge could feed the reader's loads before the writer's put and reported this sample under PSO;
 * the agent logs it as any JDK synchronization outside solo periods (docs/agent.md).
 *
 * <p>Run: {@code java -javaagent:agent/target/mmcheck.jar -jar sample-apps/target/sample-apps.jar S30_MapPublication}.
 */
@Expected(tso = false, pso = false, why = "the put publishes the fields, the get that finds the object acquires them")
public final class S30_MapPublication implements Runnable {

    /** What is handed over. */
    static final class Box {
        int a;
        int b;
    }

    private static final int ROUNDS = 500;

    @Override
    public void run() {
        long seen = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ConcurrentHashMap<String, Box> map = new ConcurrentHashMap<>();
            int[] read = new int[2];
            Thread reader = new Thread(() -> {
                Box box;
                while ((box = map.get("box")) == null) {
                    Thread.yield();
                }
                read[0] = box.b;
                read[1] = box.a;
            }, "reader");
            Thread writer = new Thread(() -> {
                Box box = new Box();
                box.a = 1;
                box.b = 1;
                map.put("box", box);
            }, "writer");
            reader.start();
            writer.start();
            Samples.join(writer);
            Samples.join(reader);
            seen += read[0] + read[1];
        }
        System.out.println("S30_MapPublication: the readers saw " + seen + " of " + 2 * ROUNDS);
    }
}
