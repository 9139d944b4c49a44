package demo;

/** Dekker's entry protocol, plain and volatile, with no branch (its coverage is the same in every run). */
public class Flags {
    int a;
    int b;
    volatile int va;
    volatile int vb;

    public int left() {
        a = 1;
        int seen = b;
        a = 0;
        return seen;
    }

    public int right() {
        b = 1;
        int seen = a;
        b = 0;
        return seen;
    }

    public int volatileLeft() {
        va = 1;
        int seen = vb;
        va = 0;
        return seen;
    }

    public int volatileRight() {
        vb = 1;
        int seen = va;
        vb = 0;
        return seen;
    }
}
