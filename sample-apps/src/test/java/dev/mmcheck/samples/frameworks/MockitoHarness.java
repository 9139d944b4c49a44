package dev.mmcheck.samples.frameworks;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * What a test suite that uses Mockito does, run under the agent by MockitoIT: mocks of an interface and
 * of a class (classes Mockito generates at run time, with auxiliary classes and a dispatcher it injects
 * into the boot loader, none of which has a class file), stubbed, then called from two threads that
 * hand their results over through a join. Prints {@code harness: mocks ok} when the calls returned the
 * stubbed values and were all recorded.
 */
public final class MockitoHarness {

    /** A class to mock (an interface is mocked too). */
    public static class Source {
        /** The real value, never returned by the mock. */
        public int next() {
            return -1;
        }
    }

    private MockitoHarness() {
    }

    public static void main(String[] args) throws InterruptedException {
        IntSupplier supplier = mock(IntSupplier.class);
        when(supplier.getAsInt()).thenReturn(7);
        Source source = mock(Source.class);
        when(source.next()).thenReturn(5);
        AtomicInteger sum = new AtomicInteger();
        Runnable work = () -> {
            for (int i = 0; i < 100; i++) {
                sum.addAndGet(supplier.getAsInt() + source.next());
            }
        };
        Thread a = new Thread(work, "A");
        Thread b = new Thread(work, "B");
        a.start();
        b.start();
        a.join();
        b.join();
        verify(supplier, times(200)).getAsInt();
        verify(source, times(200)).next();
        if (sum.get() != 200 * 12) {
            throw new AssertionError("the mocks returned " + sum.get() + " in all, not " + 200 * 12);
        }
        System.out.println("harness: mocks ok");
    }
}
