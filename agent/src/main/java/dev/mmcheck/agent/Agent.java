package dev.mmcheck.agent;

import dev.mmcheck.agent.rewrite.ProbeBridge;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * The agent's entry point: {@code java -javaagent:mmcheck.jar[=KEY=VALUE,...] ...}.
 *
 * <p>Validates the options (a mistake stops the JVM with one line, status 2, rather than let it run
 * unchecked), defines the runtime in the bootstrap class loader ({@link Boot}: so that classes of every
 * class loader can call the probes, and so that its JCTools never meets the application's), then hands
 * over to {@link AgentStart}. This class touches no runtime class itself: they must come from the
 * bootstrap class loader, defined first.
 */
public final class Agent {

    private static final String RUNTIME = "/META-INF/mmcheck/mmcheck-runtime.jar";

    private Agent() {
    }

    /** Called by the JVM before main. */
    public static void premain(String args, Instrumentation inst) {
        Options options;
        try {
            options = Options.parse(args, System.getProperties());
        } catch (Options.OptionException e) {
            // on the process's own standard error before the exit: Surefire shows it above its "The forked VM
            // terminated without properly saying goodbye", which is what this exit looks like to it
            System.err.println("mmcheck: " + e.getMessage() + " (stopping with exit status 2 rather than running "
                    + "unchecked: a test runner reports this as a fork that did not say goodbye)");
            System.err.flush();
            System.exit(2);
            return;
        }
        // Byte Buddy without sun.misc.Unsafe (no warnings on recent JDKs; nothing here needs class injection).
        // The shade plugin relocates this name with Byte Buddy, so the application's own Byte Buddy is untouched.
        System.setProperty("net.bytebuddy.safe", "true");
        try {
            installRuntime(inst);
            openInternals(inst);
            AgentStart.start(options, inst);
        } catch (IOException | RuntimeException | LinkageError e) {
            System.err.println("mmcheck: cannot start: " + e + " (stopping rather than running unchecked)");
            System.exit(2);
        }
    }

    /**
     * The JDK packages whose internal fields the runtime reads, opened to it (the unnamed module of the bootstrap
     * class loader, where it was defined): which lock a condition belongs to, which map a view or an iterator reads
     * (runtime.SyncObjects), which array or memory a ByteBuffer views, which shutdown hooks the application
     * registered (runtime.ShutdownHooks: the agent's own waits for them before it halts). Opened to the runtime only, not to the
     * application. Without them (a JDK that refuses) the runtime keeps one address for all of java.util.concurrent.
     */
    private static void openInternals(Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            Module runtime = Class.forName("dev.mmcheck.runtime.Probes", false, null).getModule();
            if (!inst.isModifiableModule(base)) {
                return;
            }
            java.util.Map<String, java.util.Set<Module>> opens = new java.util.HashMap<>();
            for (String p : new String[] {"java.util", "java.util.concurrent", "java.util.concurrent.locks", "java.nio",
                    "java.lang"}) {
                opens.put(p, java.util.Set.of(runtime));
            }
            inst.redefineModule(base, java.util.Set.of(), java.util.Map.of(), opens, java.util.Set.of(), java.util.Map.of());
        } catch (ClassNotFoundException | RuntimeException e) {
            // the runtime falls back to one address for all of java.util.concurrent (docs/agent.md)
        }
    }

    /** Loading the agent after start-up is not supported: the run so far was not observed. */
    public static void agentmain(String args, Instrumentation inst) {
        System.err.println("mmcheck: the agent must be given at start-up with -javaagent; not attaching");
    }

    /**
     * Defines the runtime's classes in the bootstrap class loader; where this JDK does not let {@link Boot} do
     * that, appends the runtime's jar to the bootstrap class path instead (and the JVM then prints that
     * sharing is only supported for boot loader classes: nothing else is lost). Then defines the probes'
     * bridge in java.lang ({@link ProbeBridge}), without which code of a class loader that does not delegate
     * to its parent could not run: failing that, the agent does not start.
     */
    private static void installRuntime(Instrumentation inst) throws IOException {
        byte[] jar;
        try (InputStream in = Agent.class.getResourceAsStream(RUNTIME)) {
            if (in == null) {
                throw new IOException("the agent jar has no " + RUNTIME + " (a broken build?)");
            }
            jar = in.readAllBytes();
        }
        Boot boot = Boot.open(inst);
        String notDefined;
        try {
            notDefined = boot.defineRuntime(jar);
        } catch (IOException | RuntimeException | LinkageError e) {
            notDefined = e.toString();
        }
        if (notDefined != null) {
            appendRuntime(inst, jar);
        }
        boot.defineBridge(ProbeBridge.NAME, ProbeBridge.bytes());
    }

    private static void appendRuntime(Instrumentation inst, byte[] runtime) throws IOException {
        Path jar = Files.createTempFile("mmcheck-runtime", ".jar");
        jar.toFile().deleteOnExit();
        Files.write(jar, runtime);
        try (JarFile file = new JarFile(jar.toFile())) {
            inst.appendToBootstrapClassLoaderSearch(file); // the JVM opens the jar itself, now
        }
        removeEarly(jar);
    }

    /**
     * Removes the runtime's copy as soon as the JVM has it open: a run that ends with {@code halt} (a failing
     * status: failOnViolation, failOnError) or is killed never reaches {@code deleteOnExit}, and its copy would stay in the
     * temporary directory, one per run. The boot class path keeps reading the open file (on Linux and macOS); where
     * an open file cannot be removed, {@code deleteOnExit} stays the way it goes.
     */
    private static void removeEarly(Path jar) {
        try {
            Class.forName("dev.mmcheck.runtime.Probes", false, null); // a check: the JVM opened the jar as it was appended
            Files.deleteIfExists(jar);
        } catch (ClassNotFoundException | IOException | SecurityException e) {
            // left to deleteOnExit (the class's absence is reported when the runtime is first used)
        }
    }
}
