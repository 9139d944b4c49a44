package demo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** A mock of a concrete class (Mockito's inline mock maker, its agent on argLine or attached by itself). */
class MockedTest {

    @Test
    void mockedFlags() {
        Flags f = mock(Flags.class);
        when(f.left()).thenReturn(5);
        assertEquals(5, f.left());
    }
}
