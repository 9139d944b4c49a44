package dev.mmcheck.checker.history;

/** The memory models a history is checked against. */
public enum Model {
    /** Sequential consistency: some store order makes po ∪ wr ∪ ww ∪ rw acyclic. */
    SC,
    /** Total store order: some store order makes po-loc ∪ wr ∪ ww ∪ rw and ppo ∪ wre ∪ ww ∪ rw acyclic. */
    TSO
}
