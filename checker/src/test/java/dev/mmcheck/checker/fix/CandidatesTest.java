package dev.mmcheck.checker.fix;

import dev.mmcheck.checker.event.Site;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user can write: no mode for a Reference's referent, which the JDK's get() and clear() access. */
class CandidatesTest {

    private static final Site CLEAR = Site.at("WeakCache.java", 55);

    @Test
    void aReferentTakesFencesButNoMode() {
        String clear = "the store to WeakReference.referent";
        assertFalse(Candidates.writable(Set.of(Change.at(Change.Kind.RELEASE_STORE, CLEAR, clear))));
        assertFalse(Candidates.writable(Set.of(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, CLEAR, clear),
                Change.at(Change.Kind.VOLATILE_STORE, CLEAR, clear))));
        assertTrue(Candidates.writable(Set.of(Change.at(Change.Kind.RELEASE_FENCE_BEFORE, CLEAR, clear))));
    }

    @Test
    void anOrdinaryFieldTakesAMode() {
        assertTrue(Candidates.writable(Set.of(Change.at(Change.Kind.RELEASE_STORE, CLEAR, "the store to Entry.value"))));
        assertTrue(Candidates.writable(Set.of(Change.volatileField("Entry.value", CLEAR, "the store to Entry.value"))));
    }
}
