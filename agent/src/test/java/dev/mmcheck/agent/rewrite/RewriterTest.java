package dev.mmcheck.agent.rewrite;

import dev.mmcheck.agent.fixtures.Accesses;
import dev.mmcheck.agent.fixtures.Fenced;
import dev.mmcheck.agent.ids.FieldTable;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.runtime.EventLog;
import dev.mmcheck.runtime.Kinds;
import dev.mmcheck.runtime.ThreadLog;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transforms fixture classes in memory and checks the probe calls emitted; then loads and runs the
 * transformed code and checks the events it writes to the calling thread's log.
 */
class RewriterTest {

    private final FieldTable fields = new FieldTable();
    private final SiteTable sites = new SiteTable();

    private byte[] transform(Class<?> c) throws IOException {
        return transform(c, false);
    }

    private byte[] transform(Class<?> c, boolean syncOnly) throws IOException {
        return transform(c, syncOnly, null);
    }

    /** {@code c} rewritten, calling the probes through the bridge named {@code bridge} (ProbeBridge) unless null. */
    private byte[] transform(Class<?> c, boolean syncOnly, String bridge) throws IOException {
        byte[] original;
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            original = in.readAllBytes();
        }
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return RewriterTest.class.getClassLoader();
            }
        };
        ClassRewriter.Context ctx = ClassRewriter.Context.of(fields, sites, (className, method) -> false, true);
        reader.accept(new ClassRewriter(writer, ctx, new TypeFacts(TypePool.Default.ofSystemLoader()), syncOnly, bridge),
                ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    private List<String> probes(byte[] bytes, String method) {
        return probes(bytes, method, false);
    }

    /** The probes {@code method} calls, in order, and with {@code constants} the class and method-type constants it loads. */
    private List<String> probes(byte[] bytes, String method, boolean constants) {
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, 0);
        List<String> out = new ArrayList<>();
        for (MethodNode m : n.methods) {
            if (m.name.equals(method)) {
                m.instructions.forEach(i -> {
                    if (i instanceof MethodInsnNode mi && (mi.owner.startsWith("dev/mmcheck/runtime/"))) {
                        out.add(mi.name);
                    } else if (constants && i instanceof org.objectweb.asm.tree.LdcInsnNode l && l.cst instanceof org.objectweb.asm.Type t) {
                        out.add("ldc " + t.getDescriptor());
                    }
                });
            }
        }
        return out;
    }

    @Test
    void fieldAccessesGetLockAndLogProbes() throws Exception {
        byte[] b = transform(Accesses.class);
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI"), probes(b, "readPlain"));
        assertEquals(List.of("threadLog", "lockVolatileStore", "logStoreI", "unlock"), probes(b, "writeVolatile"),
                "a volatile store: schedule=active's widest point of a window before it (Schedule.beforeClosing)");
        assertEquals(List.of("threadLog", "lockStatic", "logLoadI", "lockStatic", "logStoreI", "unlock"), probes(b, "bumpStatic"));
        assertEquals(List.of("threadLog", "logMonitorEnter", "lockPlainField", "logLoadI", "logMonitorExit", "logMonitorExit"),
                probes(b, "synced"));
        assertTrue(probes(b, "atomics").containsAll(List.of("lockAtomicUnlessSolo", "logCall", "lockAtomic", "mute", "logCallUnmute")),
                "an atomic's call that runs no function of the application's is left out in a solo period; one that does is not");
        assertTrue(probes(b, "updater").containsAll(List.of("lockUpdaterUnlessSolo", "logCas")),
                "a compare-and-set: logged at its success site or its failure site, by its result");
        assertTrue(probes(b, "handle").containsAll(List.of("lockHandleUnlessSolo", "logFence", "logCall")),
                "a VarHandle access in any mode: left out in a solo period");
        assertTrue(probes(b, "<clinit>").containsAll(List.of("updaterCreated", "fieldHandleCreated")));
        assertTrue(probes(b, "<init>").contains("logFence"), "final fields: the constructor ends with a freeze");
    }

    /**
     * The plain accesses of a stretch of straight-line code with nothing between them that can throw, block, call or
     * load a class share one solo window (MethodRewriter.groups): the first opens it, the last's group end closes it.
     */
    @Test
    void plainAccessesOfAStraightStretchAreGrouped() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.Grouped.class);
        assertEquals(List.of("threadLog", "lockPlainFieldFirst", "logLoadA", "lockPlainFieldIn", "logLoadI", "loadElementJIn",
                "lockElementIn", "logStoreJ", "unlock", "lockPlainFieldIn", "logLoadJ", "lockPlainFieldIn", "logStoreJ", "unlock",
                "endGroup"), probes(b, "bump"));
        assertEquals(List.of("threadLog", "lockPlainFieldFirst", "logLoadA", "loadElementJIn", "endGroup"), probes(b, "read"));
        assertEquals(List.of("threadLog", "caller", "lockPlainField", "logStoreI", "unlock", "callFrom", "callFrom",
                "lockPlainField", "logStoreI", "unlock"),
                probes(b, "withCall"), "a call between: each access alone (the call says where it is, before and after)");
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI", "lockPlainField", "logLoadI"), probes(b, "divided"),
                "an integer division between may throw: each alone");
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI", "lockPlainField", "logLoadI"), probes(b, "branch"),
                "a jump between: each alone");
        assertEquals(List.of("threadLog", "lockPlainFieldFirst", "logLoadI", "lockPlainFieldIn", "logLoadI", "endGroup"),
                probes(b, "other"), "another object's field of this class: one group");
        assertEquals(List.of("threadLog", "ldc Ldev/mmcheck/agent/fixtures/Grouped$Other;", "lockPlainFieldFirst", "logLoadI",
                "lockPlainFieldIn", "logLoadI", "endGroup"), probes(b, "foreignFirst", true),
                "another class's field opens a group, its class resolved before the window opens");
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI", "ldc Ldev/mmcheck/agent/fixtures/Grouped$Other;",
                "lockPlainField", "logLoadI"), probes(b, "foreignLater", true), "but does not join one");
        assertEquals(List.of("threadLog", "loadElementI", "lockPlainField", "logLoadI"), probes(b, "firstPrimitive"),
                "a primitive element load does not open a group");
        assertEquals(List.of("threadLog", "lockPlainFieldFirst", "logLoadA", "lockElementStoreIn", "logStoreA", "unlock",
                "lockPlainFieldIn", "logLoadA", "lockElementIn", "logLoadA", "endGroup"), probes(b, "swap"));
    }

    /**
     * Grouped code logs what ungrouped code logs outside a solo period; in one, the group's accesses are left out
     * under one window, closed after the group, and an access of the group that throws closes it first.
     */
    @Test
    void groupedAccessesAreLoggedOutsideASoloPeriodAndLeftOutUnderOneWindowInOne() throws Exception {
        Class<?> fixture = dev.mmcheck.agent.fixtures.Grouped.class;
        byte[] b = transform(fixture);
        List<Ev> bump = run(fixture, b, "bump", 1);
        // outside a period each access is logged as ungrouped (the load of counts repeats the constructor's store to it
        // by the same thread, with no write since, but the thread logged other events after that store: logged, as
        // docs/agent.md, "Loads that are not logged", says)
        assertEquals(List.of(Kinds.LOAD, Kinds.LOAD, Kinds.LOAD, Kinds.STORE, Kinds.LOAD, Kinds.STORE),
                bump.stream().map(e -> e.kind).toList(), "outside a period: the group's accesses logged");
        Class<?> c = new Loader(fixture.getName(), b).loadClass(fixture.getName());
        Object o = c.getConstructor().newInstance();
        Method bumpIt = c.getMethod("bump", int.class);
        Method swap = c.getMethod("swap", Object.class);
        ThreadLog log = EventLog.current();
        long from = log.lvProducerIndex();
        long leftOut = log.soloLeftOut();
        dev.mmcheck.runtime.Solo.configure(true);
        assertTrue(dev.mmcheck.runtime.Solo.claim(log) && dev.mmcheck.runtime.Solo.confirm(log), "a period for this thread");
        try {
            bumpIt.invoke(o, 1);
            assertFalse(log.soloWindowOpen(), "the window closes after the group");
            assertEquals(6, log.soloLeftOut() - leftOut, "the group's six accesses left out");
            java.lang.reflect.InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
                    java.lang.reflect.InvocationTargetException.class, () -> swap.invoke(o, 42));
            assertTrue(thrown.getCause() instanceof ArrayStoreException, thrown.toString());
            assertFalse(log.soloWindowOpen(), "an access that throws in a group closes its window first");
            Method read = c.getMethod("read", int.class);
            thrown = org.junit.jupiter.api.Assertions.assertThrows(java.lang.reflect.InvocationTargetException.class,
                    () -> read.invoke(o, 99));
            assertTrue(thrown.getCause() instanceof ArrayIndexOutOfBoundsException, thrown.toString());
            assertFalse(log.soloWindowOpen(), "an element load out of bounds in a group: its window closed first");
            Method pair = c.getMethod("pair", c);
            thrown = org.junit.jupiter.api.Assertions.assertThrows(java.lang.reflect.InvocationTargetException.class,
                    () -> pair.invoke(o, (Object) null));
            assertTrue(thrown.getCause() instanceof NullPointerException, thrown.toString());
            assertFalse(log.soloWindowOpen(), "a null receiver in a group: its window closed first");
            assertEquals(from, log.lvProducerIndex(), "nothing logged in the period");
        } finally {
            dev.mmcheck.runtime.Solo.configure(false);
            dev.mmcheck.runtime.Solo.confirmNot(log); // the claim too, for the tests that follow in this JVM
        }
    }

    /**
     * A plain store right after a release fence, and a plain load right before an acquire fence, are classified as the
     * release store and acquire load they are written to be (their sites' mode: FenceOrdered); others stay plain.
     */
    @Test
    void plainFieldAccessesOrderedByAFenceNextToThemGetItsMode() throws Exception {
        int before = sites.size();
        transform(Fenced.class);
        java.util.Map<String, List<String>> modes = new java.util.TreeMap<>();
        for (int i = before; i < sites.size(); i++) {
            dev.mmcheck.checker.event.Site s = sites.get(i);
            if (s.className().endsWith("Fenced") && !s.method().equals("<init>")) {
                modes.computeIfAbsent(s.method(), k -> new ArrayList<>()).add(s.mode());
            }
        }
        // each method's sites, its fences' included (each with its own flavour: a full fence none), in order
        assertEquals(List.of("release", "release"), modes.get("set"), "Sequence.set: releaseFence, then a plain store");
        assertEquals(List.of("acquire", "acquire"), modes.get("get"), "Sequence.get: a plain load, then acquireFence");
        assertEquals(List.of("", "release", "acquire", ""), modes.get("fullFenced"), "a full fence orders both ways");
        assertEquals(List.of("release", "release", "", "acquire", "", "release", ""), modes.get("notFenced"),
                "only the store right after the first fence is ordered so; the rest is plain");
    }

    /**
     * Under sampling a bracketed call that writes gets {@code bracketWrites} before its lock probe, so that
     * its flush ticket is counted before the call runs (docs/sampling.md, "Fences and the merge"); a full
     * run's code does not have it.
     */
    @Test
    void underSamplingABracketedWriteAnnouncesItselfBeforeItsLockProbe() throws Exception {
        assertFalse(probes(transform(Accesses.class), "atomics").contains("bracketWrites"), "not in a full run");
        dev.mmcheck.runtime.Sampling.configure(0.5, 1);
        try {
            List<String> atomics = probes(transform(Accesses.class), "atomics");
            int announce = atomics.indexOf("bracketWrites");
            assertTrue(announce >= 0 && atomics.indexOf("lockAtomic") > announce, atomics.toString());
        } finally {
            dev.mmcheck.runtime.Sampling.configure(1, 0);
        }
    }

    /**
     * The class an access names is resolved (a class constant, dropped) before its lock probe, and so is a
     * VarHandle call's descriptor: their first execution would otherwise resolve them inside the probes, where a
     * class loader's code could run nested (not logged) or block inside a solo window (SoloHandOverIT).
     */
    @Test
    void theClassesAnAccessNamesAreResolvedBeforeItsLockProbe() throws Exception {
        byte[] b = transform(Accesses.class);
        assertEquals(List.of("threadLog", "ldc Ldev/mmcheck/agent/fixtures/Accesses$Frozen;", "lockPlainField", "logLoadI"),
                probes(b, "readOther", true));
        assertEquals(List.of("threadLog", "lockPlainField", "logLoadI"), probes(b, "readPlain", true),
                "the class's own fields: nothing to resolve");
        List<String> atomics = probes(b, "atomics", true);
        assertTrue(atomics.indexOf("ldc Ljava/util/concurrent/atomic/AtomicInteger;") == atomics.indexOf("lockAtomicUnlessSolo") - 1,
                atomics.toString());
        List<String> handle = probes(b, "handle", true);
        int lock = handle.indexOf("lockHandleUnlessSolo");
        assertEquals(List.of("ldc Ljava/lang/invoke/VarHandle;", "ldc (Ldev/mmcheck/agent/fixtures/Accesses;I)V"),
                handle.subList(lock - 2, lock), handle.toString());
        Loader loader = new Loader(Accesses.class.getName(), b);
        Object o = loader.loadClass(Accesses.class.getName()).getConstructor().newInstance();
        assertEquals(7, o.getClass().getMethod("handle").invoke(o), "the transformed code still runs");
    }

    /** Loads the given classes from their transformed bytes, child-first. */
    private static final class Loader extends ClassLoader {
        private final java.util.Map<String, byte[]> classes = new java.util.HashMap<>();

        Loader(String name, byte[] bytes) {
            super(RewriterTest.class.getClassLoader());
            classes.put(name, bytes);
        }

        Loader also(String name, byte[] bytes) {
            classes.put(name, bytes);
            return this;
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            byte[] bytes = classes.get(n);
            if (bytes != null) {
                synchronized (getClassLoadingLock(n)) {
                    Class<?> c = findLoadedClass(n);
                    return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                }
            }
            return super.loadClass(n, resolve);
        }
    }

    private record Ev(int kind, int slot, Object object, long value, int site, int caller) {
    }

    /** Accesses the last run's thread could not log because they ran nested inside another's probes. */
    private volatile long lastNested;

    /** Runs {@code method} of a fresh instance of the transformed fixture in a new thread, returns its events. */
    private List<Ev> run(byte[] b, String method, Object... args) throws Exception {
        return run(Accesses.class, b, method, args);
    }

    private List<Ev> run(Class<?> fixture, byte[] b, String method, Object... args) throws Exception {
        return run(new Loader(fixture.getName(), b), fixture, method, args);
    }

    private List<Ev> run(Loader loader, Class<?> fixture, String method, Object... args) throws Exception {
        Class<?> c = loader.loadClass(fixture.getName());
        Constructor<?> ctor = c.getConstructor();
        Method m = null;
        for (Method x : c.getMethods()) {
            if (x.getName().equals(method)) {
                m = x;
            }
        }
        Method target = m;
        List<Ev> events = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        Object[] result = new Object[1];
        Thread t = new Thread(() -> {
            try {
                Object o = ctor.newInstance();
                ThreadLog log = EventLog.current();
                long from = log.lvProducerIndex();
                try {
                    result[0] = target.invoke(o, args);
                } catch (java.lang.reflect.InvocationTargetException expected) {
                    result[0] = expected.getCause();
                }
                lastNested = log.nestedAccesses();
                for (long i = from; i < log.lvProducerIndex(); i++) {
                    events.add(new Ev(log.lpInt(i, ThreadLog.KIND), log.lpInt(i, ThreadLog.SLOT), log.lpObject(i),
                            log.lpValue(i), log.lpInt(i, ThreadLog.SITE), log.lpInt(i, ThreadLog.CALLER)));
                }
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        return events;
    }

    @Test
    void transformedCodeRunsAndLogsItsAccesses() throws Exception {
        byte[] b = transform(Accesses.class);
        EventLog.configure(1 << 12, true);
        List<Ev> e = run(b, "readWriteWide");
        assertEquals(List.of(Kinds.LOAD, Kinds.STORE, Kinds.LOAD), e.stream().map(Ev::kind).toList());
        assertEquals(1L, e.get(1).value(), "the stored value is recorded for the self-check");
        assertEquals(List.of(Kinds.LOAD, Kinds.LOAD, Kinds.LOAD, Kinds.STORE, Kinds.LOAD, Kinds.STORE, Kinds.LOAD,
                Kinds.LOAD), run(b, "arrays", 2).stream().map(Ev::kind).toList(), "ints twice, the element, its "
                + "store, strings, its element store, then ints and the element again");
        assertEquals(List.of(Kinds.VOLATILE_STORE), run(b, "writeVolatile", 1).stream().map(Ev::kind).toList());
        assertEquals(List.of(Kinds.MONITOR_ENTER, Kinds.LOAD, Kinds.MONITOR_EXIT),
                run(b, "synced").stream().map(Ev::kind).toList());
        assertEquals(List.of(Kinds.MONITOR_ENTER, Kinds.LOAD, Kinds.MONITOR_EXIT),
                run(b, "block").stream().map(Ev::kind).toList());
        List<Integer> atomics = run(b, "atomics").stream().map(Ev::kind).toList();
        assertEquals(List.of(Kinds.LOAD, Kinds.VOLATILE_STORE, Kinds.LOAD, Kinds.RELEASE_STORE, Kinds.LOAD,
                Kinds.INTERLOCKED, Kinds.LOAD, Kinds.LOAD, Kinds.LOAD, Kinds.INTERLOCKED), atomics,
                "each call reads the field atomic first; the update function's own accesses are muted");
        assertEquals(List.of(Kinds.LOAD, Kinds.INTERLOCKED), run(b, "updater").stream().map(Ev::kind).toList(),
                "the static final UPDATER field (this thread's first read of it), then the CAS");
        assertEquals(List.of(Kinds.LOAD, Kinds.RELEASE_STORE, Kinds.FULL_FENCE, Kinds.LOAD),
                run(b, "handle").stream().map(Ev::kind).toList(), "FLAG (first read), setRelease, the fence, getAcquire");
    }

    /**
     * Code rewritten to call the probes through the bridge (ProbeBridge, as the code of class loaders other than
     * the application's is) calls no probe directly, calls the same probes in the same order, and logs the same
     * events as code calling them directly.
     */
    @Test
    void codeCallingTheProbesThroughTheBridgeLogsTheSame() throws Exception {
        String bridge = "dev/mmcheck/agent/rewrite/RewriterTestBridge";
        byte[] direct = transform(Accesses.class);
        byte[] bridged = transform(Accesses.class, false, bridge);
        ClassNode d = new ClassNode();
        new ClassReader(direct).accept(d, 0);
        ClassNode b = new ClassNode();
        new ClassReader(bridged).accept(b, 0);
        for (int k = 0; k < d.methods.size(); k++) {
            List<String> viaBridge = new ArrayList<>();
            b.methods.get(k).instructions.forEach(i -> {
                if (i instanceof MethodInsnNode mi && (mi.owner.startsWith("dev/mmcheck/runtime/") || mi.owner.equals(bridge))) {
                    viaBridge.add(mi.owner.equals(bridge) ? mi.name : "direct " + mi.name);
                }
            });
            assertEquals(probes(direct, d.methods.get(k).name), viaBridge, d.methods.get(k).name);
        }
        EventLog.configure(1 << 12, true);
        for (String method : List.of("readWriteWide", "arrays", "writeVolatile", "synced", "block", "atomics", "updater",
                "handle")) {
            Object[] args = method.equals("arrays") ? new Object[] {2} : method.equals("writeVolatile") ? new Object[] {1}
                    : new Object[0];
            List<Ev> one = run(new Loader(Accesses.class.getName(), direct), Accesses.class, method, args);
            List<Ev> other = run(new Loader(Accesses.class.getName(), bridged).also(bridge.replace('/', '.'),
                    ProbeBridge.bytes(bridge)), Accesses.class, method, args);
            assertTrue(!one.isEmpty(), method);
            assertEquals(one.stream().map(RewriterTest::shape).toList(), other.stream().map(RewriterTest::shape).toList(),
                    method);
        }
    }

    /** An event's kind, slot and the class of its object (the objects are the runs' own). */
    private static String shape(Ev e) {
        return e.kind() + "/" + e.slot() + "/" + (e.object() == null ? null : e.object().getClass().getName());
    }

    @Test
    void unsafeAccessesAndFencesAreEvents() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class);
        EventLog.configure(1 << 12, false);
        dev.mmcheck.runtime.Targets.resolver(fields.resolver());
        List<Ev> e = run(dev.mmcheck.agent.fixtures.MoreAccesses.class, b, "unsafe");
        // the static U and VALUE loads, then putOrdered, storeFence, CAS (U and VALUE reloaded around them)
        List<Integer> kinds = e.stream().map(Ev::kind).filter(k -> k != Kinds.LOAD).toList();
        assertEquals(List.of(Kinds.RELEASE_STORE, Kinds.STORE_STORE_FENCE, Kinds.INTERLOCKED), kinds);
        Ev cas = e.stream().filter(x -> x.kind() == Kinds.INTERLOCKED).findFirst().orElseThrow();
        Ev put = e.stream().filter(x -> x.kind() == Kinds.RELEASE_STORE).findFirst().orElseThrow();
        assertEquals(put.slot(), cas.slot(), "both resolve the offset to the same field");
        assertEquals(fields.id(dev.mmcheck.agent.fixtures.MoreAccesses.class.getName(), "value"), cas.slot(),
                "the offset resolves to the field's id, as GETFIELD/PUTFIELD use it");
    }

    @Test
    void handlesNoProbeSawCreatedResolveToTheFieldsTheyReach() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class);
        EventLog.configure(1 << 12, false);
        dev.mmcheck.runtime.Targets.resolver(fields.resolver());
        long unresolved = dev.mmcheck.runtime.Targets.unresolved();
        long unlogged = dev.mmcheck.runtime.Targets.unloggedHandles();
        List<Ev> e = run(dev.mmcheck.agent.fixtures.MoreAccesses.class, b, "unreflected");
        String fixture = dev.mmcheck.agent.fixtures.MoreAccesses.class.getName();
        int plain = fields.id(fixture, "plain");
        int count = fields.id(fixture, "count");
        List<Ev> onPlain = e.stream().filter(x -> x.slot() == plain).toList();
        assertEquals(List.of(Kinds.LOAD, Kinds.RELEASE_STORE, Kinds.STORE), onPlain.stream().map(Ev::kind).toList(),
                "getAcquire and setRelease through the unreflected handle, then PUTFIELD: one address");
        assertEquals(1, onPlain.stream().map(Ev::object).distinct().count(), "all three on the same object");
        List<Ev> onCount = e.stream().filter(x -> x.slot() == count).toList();
        assertEquals(List.of(Kinds.VOLATILE_STORE, Kinds.STORE), onCount.stream().map(Ev::kind).toList(),
                "setVolatile through the unreflected static handle, then PUTSTATIC");
        assertSame(onCount.get(0).object(), onCount.get(1).object(), "the static field's one owner token");
        assertEquals(unresolved, dev.mmcheck.runtime.Targets.unresolved(), "nothing checked under an address of its own");
        assertEquals(unlogged, dev.mmcheck.runtime.Targets.unloggedHandles(),
                "the byte-array view is resolved by its class: nothing unlogged");
        assertEquals(List.of(0, 1, 2, 3), e.stream().filter(x -> x.object() instanceof byte[]
                && x.kind() == Kinds.VOLATILE_STORE).map(Ev::slot).toList(), "its setVolatile: the four bytes it stores");

        byte[] excluded = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class, true);
        long before = dev.mmcheck.runtime.Targets.unloggedHandles();
        List<Ev> sync = run(dev.mmcheck.agent.fixtures.MoreAccesses.class, excluded, "unreflected");
        assertEquals(List.of(Kinds.LOAD, Kinds.RELEASE_STORE), sync.stream().filter(x -> x.slot() == plain)
                .map(Ev::kind).toList(), "an excluded class: the handle's accesses are synchronization, PUTFIELD data");
        assertEquals(before, dev.mmcheck.runtime.Targets.unloggedHandles(),
                "in an excluded class the view's access is data the user excluded: not counted");
    }

    @Test
    void anUnsafeOffsetNoProbeSawComputedResolvesToItsField() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class);
        EventLog.configure(1 << 12, false);
        dev.mmcheck.runtime.Targets.resolver(fields.resolver());
        long unresolved = dev.mmcheck.runtime.Targets.unresolved();
        List<Ev> e = run(dev.mmcheck.agent.fixtures.MoreAccesses.class, b, "unsafeUnseenOffset");
        int plain = fields.id(dev.mmcheck.agent.fixtures.MoreAccesses.class.getName(), "plain");
        assertEquals(List.of(Kinds.RELEASE_STORE, Kinds.STORE), e.stream().filter(x -> x.slot() == plain)
                .map(Ev::kind).toList(), "putOrdered at the unseen offset and PUTFIELD: one address");
        assertEquals(unresolved, dev.mmcheck.runtime.Targets.unresolved(), "found among the class's own fields");

        int value = fields.id(dev.mmcheck.agent.fixtures.MoreAccesses.class.getName(), "value");
        List<Ev> u = run(dev.mmcheck.agent.fixtures.MoreAccesses.class, b, "updaterUnseen");
        assertEquals(List.of(Kinds.INTERLOCKED, Kinds.VOLATILE_STORE), u.stream().filter(x -> x.slot() == value)
                .map(Ev::kind).toList(), "the CAS through an updater made unseen and PUTFIELD: one address");
        assertEquals(unresolved, dev.mmcheck.runtime.Targets.unresolved(), "the JDK updater's own offset, read once");
    }

    @Test
    void aHandleTheJdkCannotDescribeIsCountedAndTheAccessStillRuns() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.ProtectedHandle.class);
        EventLog.configure(1 << 12, false);
        dev.mmcheck.runtime.Targets.resolver(fields.resolver());
        long unlogged = dev.mmcheck.runtime.Targets.unloggedHandles();
        List<Ev> e = run(dev.mmcheck.agent.fixtures.ProtectedHandle.class, b, "touch");
        assertEquals(List.of(), e.stream().filter(x -> x.kind() != Kinds.LOAD).toList(), "nothing logged for the field");
        assertEquals(unlogged + 2, dev.mmcheck.runtime.Targets.unloggedHandles(),
                "both accesses counted as unlogged (describeConstable threw InternalError once; remembered)");
    }

    @Test
    void aSynchronizedMethodThatThrowsStillExitsItsMonitor() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class);
        EventLog.configure(1 << 12, false);
        assertEquals(List.of(Kinds.MONITOR_ENTER, Kinds.STORE, Kinds.MONITOR_EXIT),
                run(dev.mmcheck.agent.fixtures.MoreAccesses.class, b, "throwsWhileLocked").stream().map(Ev::kind)
                        .toList());
    }

    @Test
    void probesAllocateNothingPerEvent() throws Exception {
        byte[] b = transform(dev.mmcheck.agent.fixtures.MoreAccesses.class);
        EventLog.configure(1 << 20, false);
        Class<?> c = new Loader(dev.mmcheck.agent.fixtures.MoreAccesses.class.getName(), b)
                .loadClass(dev.mmcheck.agent.fixtures.MoreAccesses.class.getName());
        Object o = c.getConstructor().newInstance();
        Method hot = c.getMethod("hot", int.class);
        long[] allocated = new long[1];
        long[] events = new long[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                ThreadLog log = EventLog.current();
                com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)
                        java.lang.management.ManagementFactory.getThreadMXBean();
                for (int warm = 0; warm < 20; warm++) {
                    hot.invoke(o, 10_000);
                    log.soConsumerIndex(log.lvProducerIndex()); // play the checker: free the ring
                }
                long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
                long from = log.lvProducerIndex();
                hot.invoke(o, 10_000);
                events[0] = log.lvProducerIndex() - from;
                allocated[0] = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                log.soConsumerIndex(log.lvProducerIndex());
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        assertTrue(events[0] >= 10_000, events[0] + " events");
        assertTrue(allocated[0] < 2_048, allocated[0] + " bytes allocated for " + events[0] + " events");
    }

    @Test
    void initializingAnInterfaceOnAStaticReadDoesNotLeaveAStripeHeld() throws Exception {
        // the interface is initialized by the first read of TYPES through the class: before the fix its
        // initializer ran between the read's lock and log probes and the second read spun forever
        Class<?> outer = dev.mmcheck.agent.fixtures.InterfaceStatics.class;
        Class<?> names = dev.mmcheck.agent.fixtures.StaticNames.class;
        EventLog.configure(1 << 12, false);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            Loader loader = new Loader(outer.getName(), transform(outer)).also(names.getName(), transform(names));
            for (int i = 0; i < 3; i++) {
                List<Ev> e = run(loader, outer, "describe", 1);
                assertTrue(e.stream().anyMatch(x -> x.kind() == Kinds.LOAD), "the static and the element are read");
                assertEquals(0, lastNested, "the interface's initializer ran before the read's probes, not inside");
            }
        });
    }

    @Test
    void exceptionsInsideBracketsReleaseTheStripe() throws Exception {
        byte[] b = transform(Accesses.class);
        EventLog.configure(1 << 12, false);
        // an out-of-bounds store takes no stripe; a throwing update function abandons its stripe:
        // if either leaked a stripe, the next access to the same address would spin forever
        for (int i = 0; i < 3; i++) {
            run(b, "throwsInside", (Object) new String[1]);
            List<Ev> e = run(b, "updateThrows");
            assertTrue(e.stream().anyMatch(x -> x.kind() == Kinds.LOAD));
        }
    }

    /** Loads {@code outer} and its nested classes from their transformed bytes. */
    private Loader transformedWithNested(Class<?> outer) throws IOException {
        Loader loader = new Loader(outer.getName(), transform(outer));
        for (Class<?> nested : outer.getDeclaredClasses()) {
            loader.also(nested.getName(), transform(nested));
        }
        return loader;
    }

    /**
     * Atomics reached through a subclass or an inherited call map to their access modes exactly as
     * direct calls do: JCTools' {@code Node extends AtomicReference} publishing with {@code lazySet} was
     * not seen at all before (false reports on every value read after {@code lvNext}).
     */
    @Test
    void atomicsReachedThroughSubclassesAreTheirAccessModes() throws Exception {
        Class<?> fixture = dev.mmcheck.agent.fixtures.InheritedAtomics.class;
        EventLog.configure(1 << 12, true);
        Loader loader = transformedWithNested(fixture);
        assertEquals(List.of(Kinds.RELEASE_STORE, Kinds.LOAD, Kinds.INTERLOCKED),
                run(loader, fixture, "node").stream().map(Ev::kind).toList(), "soNext, lvNext, casNext");
        List<Ev> direct = run(transformedWithNested(fixture), fixture, "direct");
        assertEquals(List.of(
                Kinds.INTERLOCKED,      // super.getAndIncrement() through an intermediate class
                Kinds.LOAD,             // the override's super.longValue()
                Kinds.RELEASE_STORE,    // lazySet inherited from AtomicLong
                Kinds.VOLATILE_STORE,   // AtomicBoolean.set
                Kinds.INTERLOCKED,      // AtomicBoolean.compareAndSet
                Kinds.INTERLOCKED,      // AtomicInteger.incrementAndGet
                Kinds.LOAD,             // AtomicInteger.getAcquire
                Kinds.RELEASE_STORE,    // AtomicReferenceArray.lazySet(i, v) inside the subclass
                Kinds.LOAD,             // AtomicReferenceArray.get(i)
                Kinds.INTERLOCKED,      // AtomicIntegerArray.getAndAdd
                Kinds.RELEASE_STORE),   // AtomicLongArray.setRelease
                direct.stream().map(Ev::kind).toList());
        assertEquals(1, direct.get(7).slot(), "the element index is the address's slot");
        assertEquals(dev.mmcheck.runtime.Probes.VALUE, direct.get(2).slot(), "an atomic's value, whatever its class");
    }

    /**
     * An excluded class (a test framework) keeps its synchronization and loses its data accesses: JUnit 4
     * starting its "Time-limited test" thread unseen made the test class's fields, written by main before
     * the start, look racy (false PSO reports).
     */
    @Test
    void anExcludedClassLogsItsSynchronizationOnly() throws Exception {
        Class<?> fixture = dev.mmcheck.agent.fixtures.Excluded.class;
        byte[] b = transform(fixture, true);
        assertEquals(List.of(), probes(b, "data"), "plain fields and array elements are not rewritten");
        EventLog.configure(1 << 12, true);
        assertEquals(List.of(), run(fixture, b, "data"));
        assertEquals(List.of(Kinds.MONITOR_ENTER, Kinds.MONITOR_EXIT, Kinds.VOLATILE_STORE, Kinds.LOAD,
                Kinds.INTERLOCKED, Kinds.THREAD_START, Kinds.THREAD_JOIN),
                run(fixture, b, "sync").stream().map(Ev::kind).toList());
        assertEquals(List.of(Kinds.STORE, Kinds.LOAD, Kinds.LOAD, Kinds.STORE, Kinds.LOAD, Kinds.LOAD, Kinds.LOAD),
                run(fixture, transform(fixture, false), "data").stream().map(Ev::kind).toList(),
                "the same class rewritten in full logs its data accesses");
    }

    /**
     * Helper sites (rewrite.HelperAccesses): an access whose object, array, index or offset comes from a parameter
     * other than {@code this} is one, marked in the site table; one whose target the method fixes itself is not
     * (a queue's offer called from every test must stay one finding per race).
     */
    @Test
    void accessesWhoseTargetTheCallerChoosesAreHelperSites() throws Exception {
        transform(dev.mmcheck.agent.fixtures.Helpers.class);
        java.util.Map<String, List<Boolean>> byMethod = new java.util.TreeMap<>();
        for (int id = 0; id < sites.size(); id++) {
            dev.mmcheck.checker.event.Site s = sites.get(id);
            if (s.className().endsWith("Helpers") && !s.method().startsWith("<")) {
                byMethod.computeIfAbsent(s.method(), k -> new ArrayList<>()).add(sites.helper(id));
            }
        }
        assertEquals(List.of(true), byMethod.get("put"), "array and index given");
        assertEquals(List.of(false, true), byMethod.get("putInt"), "this.data is not, data[index] is");
        assertEquals(List.of(false, true), byMethod.get("getInt"), "the index through a local and arithmetic");
        assertEquals(List.of(true), byMethod.get("set"), "the object given");
        assertEquals(List.of(true), byMethod.get("lazy"), "the atomic array and index given");
        assertFalse(byMethod.get("offer").contains(true), "only the value given: " + byMethod.get("offer"));
        assertEquals(List.of(false), byMethod.get("setOwn"));
    }

    /**
     * The calling context: each event carries the site of the call that reached the method that logged it
     * (Probes.callFrom), the caller's own again after the call returned, or after a call threw and was caught.
     */
    @Test
    void eventsCarryTheCallThatReachedTheirMethod() throws Exception {
        Class<?> fixture = dev.mmcheck.agent.fixtures.Helpers.class;
        byte[] b = transform(fixture);
        assertTrue(probes(b, "record").containsAll(List.of("caller", "callFrom")), probes(b, "record").toString());
        assertFalse(probes(b, "put").contains("callFrom"), "a method that calls nothing sets nothing");
        EventLog.configure(1 << 12, true);
        List<Ev> both = run(fixture, b, "both");
        // record: putInt's load of data and store of data[1]; own = 2; putInt's load of data and store of data[2]
        assertEquals(List.of(Kinds.LOAD, Kinds.STORE, Kinds.STORE, Kinds.LOAD, Kinds.STORE),
                both.stream().map(Ev::kind).toList());
        dev.mmcheck.checker.event.Site first = sites.get(both.get(1).caller());
        assertEquals("record", first.method(), "data[1] stored through record's call");
        assertEquals(lineOf("putInt(1, 5)"), first.line());
        assertEquals(-1, both.get(2).caller(), "own = 2 after record() returned: both's own caller (none here)");
        dev.mmcheck.checker.event.Site second = sites.get(both.get(4).caller());
        assertEquals("both", second.method());
        assertEquals(lineOf("putInt(2, 3)"), second.line());
        List<Ev> thrown = run(fixture, b, "throwing");
        assertEquals(List.of(Kinds.STORE, Kinds.STORE), thrown.stream().map(Ev::kind).toList());
        assertEquals("throwing", sites.get(thrown.get(0).caller()).method(), "own = 3 in fail(), called from throwing");
        assertEquals(-1, thrown.get(1).caller(), "own = 1 in the handler: the call to fail() is over");
    }

    private static int lineOf(String code) throws IOException {
        List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(
                "src/test/java/dev/mmcheck/agent/fixtures/Helpers.java"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(code)) {
                return i + 1;
            }
        }
        throw new AssertionError(code);
    }
}
