package dev.mmcheck.runtime;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The callers recorded at a finding's site: only when asked, outermost first, a few distinct chains, then no more. */
class ContextsTest {

    private static final int SITE = 1234;

    private final ThreadLog t = new ThreadLog(77, Thread.currentThread(), 64);

    private void helper() {
        t.contextSite = SITE;
        Contexts.capture(t);
    }

    private void offer() {
        helper();
    }

    private void poll() {
        helper();
    }

    @Test
    void theAgentsWrapperOfATaskIsNotInItsChain() {
        int site = 4321;
        Contexts.want(site);
        Runnable task = () -> {
            t.contextSite = site;
            Contexts.capture(t);
        };
        SyncTasks.runnable(task, null, 0).run(); // as an executor runs a task handed to it
        List<String> chains = Contexts.captured().get(site);
        assertEquals(1, chains.size(), String.valueOf(chains));
        assertFalse(chains.get(0).contains("SyncTasks"), "no frame of the agent's: " + chains);
        assertTrue(chains.get(0).contains("ContextsTest.theAgentsWrapperOfATaskIsNotInItsChain"), chains.get(0));
    }

    @Test
    void aWantedSiteRecordsItsDistinctCallerChains() {
        assertFalse(Contexts.wanted(SITE), "nothing is recorded before a finding asks");
        Contexts.want(SITE);
        assertTrue(Contexts.wanted(SITE));
        for (int i = 0; i < 5; i++) {
            offer();
            poll();
        }
        List<String> chains = Contexts.captured().get(SITE);
        assertEquals(2, chains.size(), chains.toString());
        assertTrue(chains.get(0).endsWith("ContextsTest.offer:24 -> ContextsTest.helper:20"), chains.get(0));
        assertTrue(chains.get(1).endsWith("ContextsTest.poll:28 -> ContextsTest.helper:20"), chains.get(1));
        assertEquals(Contexts.FRAMES, chains.get(0).split(" -> ").length, "at most FRAMES frames: " + chains);
        assertFalse(t.muted, "the thread is unmuted after a capture");
        for (int i = 0; i < Contexts.TRIES; i++) {
            offer();
        }
        assertFalse(Contexts.wanted(SITE), "after its tries the site is no longer watched");
    }
}
