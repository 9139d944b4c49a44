package dev.mmcheck.runtime;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One token object per static field: the object part of a static field's address, the same however
 * the field is reached (through its declaring class or a subclass, by GETSTATIC or a VarHandle).
 */
public final class StaticOwners {

    /** A static field's owner token, telling the checker which field it stands for. */
    public static final class Token {
        private final int field;

        Token(int field) {
            this.field = field;
        }

        /** The field id this token stands for. */
        public int field() {
            return field;
        }
    }

    private static volatile AtomicReferenceArray<Token> tokens = new AtomicReferenceArray<>(1024);

    private StaticOwners() {
    }

    /** The token of static field {@code field}. Any thread. */
    public static Token of(int field) {
        AtomicReferenceArray<Token> a = tokens;
        if (field < a.length()) {
            Token t = a.get(field);
            if (t != null) {
                return t;
            }
        }
        return create(field);
    }

    private static synchronized Token create(int field) {
        AtomicReferenceArray<Token> a = tokens;
        if (field >= a.length()) {
            AtomicReferenceArray<Token> b = new AtomicReferenceArray<>(Math.max(field + 1, a.length() * 2));
            for (int i = 0; i < a.length(); i++) {
                b.set(i, a.get(i));
            }
            tokens = b;
            a = b;
        }
        Token t = a.get(field);
        if (t == null) {
            t = new Token(field);
            a.set(field, t);
        }
        return t;
    }
}
