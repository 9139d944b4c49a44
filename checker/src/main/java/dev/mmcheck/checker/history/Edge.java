package dev.mmcheck.checker.history;

/**
 * One edge of a cycle: from operation {@code from} to operation {@code to}. {@code via} qualifies it:
 * for {@link EdgeKind#RW} the write the read returned ({@link History#INIT} for the initial value),
 * for {@link EdgeKind#WW_FORCED} the read that forces the order ({@code -1} when the first write simply
 * happens before the second), for {@link EdgeKind#WW_TIME} the read whose issue time forces it ({@code -1}
 * when the second write's own issue time does), otherwise {@code -1}.
 */
public record Edge(int from, int to, EdgeKind kind, int via) {
}
