package dev.mmcheck.junit5;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Repeats a test under mmcheck (after Fray's {@code @ConcurrencyTest}): each repetition draws the
 * pauses of {@code schedule=active} from a seed of its own, the repetitions stop at the first one with a
 * finding, and that one fails with the seed in its message, so that {@code @MmcheckStress(seed = S)}
 * repeats its choices. Checks with {@link MmcheckExtension}.
 *
 * <pre>
 *   &#64;MmcheckStress(iterations = 50)
 *   void offerAndPollRace() { ... }
 * </pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith({MmcheckStress.Provider.class, MmcheckExtension.class})
public @interface MmcheckStress {

    /** How many times to run the test at most. */
    int iterations() default 20;

    /** The first repetition's seed (0: drawn, or {@code -Dmmcheck.seed}); later ones derive from it. */
    long seed() default 0;

    /** Provides the repetitions, each with its seed. */
    final class Provider implements TestTemplateInvocationContextProvider {

        private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(Provider.class);

        @Override
        public boolean supportsTestTemplate(ExtensionContext context) {
            return context.getRequiredTestMethod().isAnnotationPresent(MmcheckStress.class);
        }

        @Override
        public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
            MmcheckStress s = context.getRequiredTestMethod().getAnnotation(MmcheckStress.class);
            long base = s.seed() != 0 ? s.seed() : context.getConfigurationParameter("mmcheck.seed")
                    .map(Long::parseLong).orElseGet(() -> new SplittableRandom().nextLong(1L << 40));
            AtomicBoolean found = new AtomicBoolean();
            context.getStore(NS).put("found", found);
            SplittableRandom seeds = new SplittableRandom(base);
            long[] perIteration = new long[s.iterations()];
            perIteration[0] = base;
            for (int i = 1; i < perIteration.length; i++) {
                perIteration[i] = seeds.nextLong(1L << 40);
            }
            // lazily: JUnit asks for the next repetition only after the last one ran
            return IntStream.range(0, s.iterations()).boxed().takeWhile(i -> !found.get())
                    .map(i -> invocation(i, s.iterations(), perIteration[i]));
        }

        private static TestTemplateInvocationContext invocation(int i, int n, long seed) {
            return new TestTemplateInvocationContext() {
                @Override
                public String getDisplayName(int invocationIndex) {
                    return "repetition " + (i + 1) + " of " + n + " (seed " + seed + ")";
                }

                @Override
                public List<Extension> getAdditionalExtensions() {
                    return List.of((BeforeEachCallback) c -> {
                        c.getStore(NS).put("seed", seed);
                        if (MmcheckExtension.attached()) {
                            dev.mmcheck.runtime.TestHooks.reseed(seed);
                        }
                    });
                }
            };
        }

        /** The seed of the repetition {@code context} runs, or null outside {@code @MmcheckStress}. */
        static Long seedOf(ExtensionContext context) {
            return context.getStore(NS).get("seed", Long.class);
        }

        /** A repetition found something: no more repetitions. */
        static void found(ExtensionContext context) {
            context.getParent().map(p -> p.getStore(NS).get("found", AtomicBoolean.class))
                    .ifPresent(f -> f.set(true));
        }
    }
}
