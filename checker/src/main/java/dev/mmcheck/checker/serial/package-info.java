/**
 * The conflict-serializability checks of Enea and Farzan: {@code ScSerializability} and {@code TsoSerializability}
 * (the trace event graph, {@code TsoGraph}, and the witness search of Sec. 6.2, {@code WitnessSearch}), their live
 * transactions kept in one {@code TxPool}.
 *
 * <p>Rules of this package: it uses {@code event} and {@code finding} only; a cycle is reported through
 * {@code FindingSink.cycle} in ids; every report is checked against a brute-force oracle
 * ({@code SerializabilityDifferentialTest}), and {@code SerialDigest} must stay byte-identical across a change meant to
 * alter only speed; memory is bounded by the pool's bound of live transactions, past which the oldest are dropped and
 * the run says so.
 */
package dev.mmcheck.checker.serial;
