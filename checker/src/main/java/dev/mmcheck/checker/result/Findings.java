package dev.mmcheck.checker.result;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventWindow;
import dev.mmcheck.checker.event.LastEvents;
import dev.mmcheck.checker.event.Names;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.finding.Analysis;
import dev.mmcheck.checker.finding.FindingSink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * The report side of the pipeline: takes the analyses' id-level findings, keeps one violation per
 * distinct finding (store-buffer findings by the sites of store, prev and access, as the "distinct
 * violations" of Burnim et al.'s Table 1, and by what store and access reached, objects left out
 * ({@link Names#addressShape}); cycles by the sites on the cycle) with a count, and names each
 * the first time it is seen, through the {@link Names} of whoever produced the stream (the agent, a
 * trace's symbols). Naming happens then, not at the end, because address ids are reused once their
 * objects die. A repeat costs a table look-up and allocates nothing. Checker thread only.
 */
public final class Findings implements FindingSink {

    private final Names names;
    private final LastEvents last;
    private final EventWindow window;
    private final int windowSize;
    private final IntUnaryOperator externalOf;
    private final ViolationTable table = new ViolationTable();
    private final HashMap<String, Violation> cycleTable = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long namingFailures;
    private Failure namingFailure;
    private long failNamingFrom = -1;

    /**
     * Findings named through {@code names}; the prev of a store-buffer finding comes from {@code last},
     * its happens-before path from {@code window} (of {@code windowSize} events), and a thread slot's
     * external id (the one {@code names} knows) from {@code externalOf}.
     */
    public Findings(Names names, LastEvents last, EventWindow window, int windowSize, IntUnaryOperator externalOf) {
        this.names = names;
        this.last = last;
        this.window = window;
        this.windowSize = windowSize;
        this.externalOf = externalOf;
    }

    @Override
    public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq) {
        storeBuffered(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq, thread, accessKind,
                accessAddress, accessSite, accessSeq, prevOf(thread));
    }

    @Override
    public Prev prevOf(int thread) {
        return new Prev(last.seq(thread), last.kind(thread), last.operand(thread), last.site(thread));
    }

    @Override
    public void storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
            long storeSeq, int thread, int accessKind, int accessAddress, int accessSite, long accessSeq, Prev prev) {
        // what the store and the access reached (the field, or the array's type), whichever object: one race of a
        // helper on a counter and another on a record are two (docs/report-format.md, "One finding per race")
        long storeShape = names.addressShape(storeAddress);
        long accessShape = storeAddress == accessAddress ? storeShape : names.addressShape(accessAddress);
        Violation v = table.get(analysis.ordinal(), storeSite, prev.site(), accessSite, storeShape, accessShape);
        if (v != null) {
            v.seenAgain();
            return;
        }
        try {
            checkNaming(accessSeq);
            v = new Namer(names).storeBuffered(analysis, storeThread, storeKind, storeAddress, storeSite, storeSeq,
                    thread, accessKind, accessAddress, accessSite, accessSeq, prev);
        } catch (RuntimeException | Error e) {
            namingFailed(accessSeq, e);
            v = new Namer(RAW_NAMES).storeBuffered(analysis, storeThread, storeKind, storeAddress, storeSite,
                    storeSeq, thread, accessKind, accessAddress, accessSite, accessSeq, prev);
        }
        table.put(analysis.ordinal(), storeSite, prev.site(), accessSite, storeShape, accessShape, v);
        violations.add(v);
        names.reported(storeSite, accessSite);
    }

    @Override
    public void cycle(Analysis analysis, List<Tx> txs, List<Edge> edges, String advice, long seq) {
        // distinct cycles: different transactions (their first lines) or, for TSO, different late writes
        TreeSet<Integer> txSites = new TreeSet<>();
        for (Tx x : txs) {
            txSites.add(x.site());
        }
        TreeSet<Integer> lateSites = new TreeSet<>();
        for (Edge e : edges) {
            if (!e.late().isEmpty()) {
                lateSites.add(e.late().equals("source") ? e.source().site() : e.target().site());
            }
        }
        String key = analysis.option() + txSites + lateSites;
        Violation v = cycleTable.get(key);
        if (v != null) {
            v.seenAgain();
            return;
        }
        try {
            checkNaming(seq);
            v = new Namer(names).cycle(analysis, txs, edges, advice, seq);
        } catch (RuntimeException | Error e) {
            namingFailed(seq, e);
            v = new Namer(RAW_NAMES).cycle(analysis, txs, edges, advice, seq);
        }
        cycleTable.put(key, v);
        violations.add(v);
    }

    /** Distinct violations so far, in the order first seen. */
    public List<Violation> violations() {
        return Collections.unmodifiableList(violations);
    }

    /** Violations whose naming failed (kept under raw ids). */
    public long namingFailures() {
        return namingFailures;
    }

    /** The first naming failure, or null. */
    public Failure namingFailure() {
        return namingFailure;
    }

    /** Makes naming fail from event {@code seq} on (for testing how failures are reported). */
    public void failNamingFrom(long seq) {
        failNamingFrom = seq;
    }

    private void checkNaming(long seq) {
        if (failNamingFrom >= 0 && seq >= failNamingFrom) {
            throw new IllegalStateException("failure injected into names at event " + failNamingFrom);
        }
    }

    private void namingFailed(long seq, Throwable e) {
        if (namingFailures++ == 0) {
            namingFailure = Failure.of("names", seq, e);
        }
    }

    /** Names by id only, for a violation whose naming failed: the finding is kept, its names are raw. */
    private static final Names RAW_NAMES = new Names() {
        @Override
        public String threadName(int id) {
            return "thread#" + id;
        }

        @Override
        public String addressName(int id) {
            return "address#" + id;
        }

        @Override
        public long addressShape(int id) {
            return id;
        }

        @Override
        public Site siteOf(int id) {
            return new Site("", "", "site#" + id, 0, -1);
        }
    };

    /** Turns one finding's ids into report values through one set of names. */
    private final class Namer {
        private final Names by;

        Namer(Names by) {
            this.by = by;
        }

        Violation storeBuffered(Analysis analysis, int storeThread, int storeKind, int storeAddress, int storeSite,
                long storeSeq, int t, int accessKind, int accessAddress, int accessSite, long accessSeq, Prev before) {
            EventInfo store = info("store", storeThread, storeKind, storeAddress, storeSite);
            EventInfo prev;
            long prevSeq = before.seq();
            if (prevSeq < 0) {
                prev = new EventInfo("prev", threadName(t), "none", Site.at("?", 0), "");
            } else if (EventKind.of(before.kind()) == EventKind.THREAD_START && before.operand() == t) {
                prev = new EventInfo("prev", threadName(t), "begin", by.siteOf(before.site()), "");
            } else {
                prev = info("prev", t, before.kind(), before.operand(), before.site());
            }
            EventInfo access = info("access", t, accessKind, accessAddress, accessSite);
            List<Long> seqs = window.path(storeSeq, prevSeq);
            List<EventInfo> path = null;
            String note = "";
            EventInfo leaving = null;
            EventInfo source = null;    // the last step before the path enters the access's thread
            EventInfo entering = null;  // the step where it enters it
            long leavingSeq = -1;
            java.util.Set<Integer> threads = new java.util.HashSet<>();
            if (seqs == null) {
                note = "the happens-before path from the store to prev is older than the last " + windowSize
                        + " events, so it is not shown (the finding stands: only its explanation is missing; the "
                        + "store is the first step and prev the last)";
            } else {
                path = new ArrayList<>();
                for (int i = 0; i < seqs.size(); i++) {
                    long s = seqs.get(i);
                    boolean crosses = i + 1 < seqs.size() && window.thread(seqs.get(i + 1)) != window.thread(s);
                    boolean entered = i > 0 && window.thread(seqs.get(i - 1)) != window.thread(s);
                    if (i == 0 || i == seqs.size() - 1 || crosses || entered) {
                        EventInfo step = info("step", window.thread(s), window.kind(s), window.operand(s),
                                window.site(s));
                        path.add(step);
                        if (crosses && leaving == null && window.thread(s) == storeThread) {
                            leaving = step;
                            leavingSeq = s;
                        }
                        if (entered && window.thread(s) == t) {
                            source = path.get(path.size() - 2);
                            entering = step;
                        }
                    }
                    threads.add(window.thread(s));
                }
            }
            String advice = analysis == Analysis.JMM
                    ? Advice.jmm(store, access, leaving, source, entering, seqs == null ? 0 : threads.size(),
                            leavingSeq >= 0 && fenceBetween(storeThread, storeSeq, leavingSeq, false),
                            leavingSeq >= 0 && fenceBetween(storeThread, storeSeq, leavingSeq, true))
                    : Advice.of(analysis, store, leaving);
            return new Violation("sc-violation", analysis, List.of(store, prev, access), path, note, advice,
                    accessSeq);
        }

        /**
         * Whether thread {@code t} made a full fence (or an interlocked operation, which is one on x86), or, unless
         * {@code full}, a release or store-store fence, after event {@code from}, up to {@code to}.
         */
        private boolean fenceBetween(int t, long from, long to, boolean full) {
            for (long s = from + 1; s <= to; s++) {
                if (window.retains(s) && window.thread(s) == t) {
                    EventKind k = EventKind.of(window.kind(s));
                    if (k == EventKind.FULL_FENCE || full && (k == EventKind.INTERLOCKED || k == EventKind.VOLATILE_STORE
                            || k == EventKind.MONITOR_ENTER || k == EventKind.MONITOR_EXIT)
                            || !full && k == EventKind.STORE_STORE_FENCE) {
                        return true;
                    }
                }
            }
            return false;
        }

        Violation cycle(Analysis analysis, List<Tx> txs, List<Edge> edges, String advice, long seq) {
            List<TxInfo> infos = new ArrayList<>();
            for (Tx x : txs) {
                infos.add(new TxInfo(threadName(x.thread()), by.siteOf(x.site()), x.atomic()));
            }
            List<CycleEdge> named = new ArrayList<>();
            StringBuilder late = new StringBuilder();
            for (Edge e : edges) {
                EventInfo src = info("source", e.source().thread(), e.source().kind(), e.source().operand(),
                        e.source().site());
                EventInfo dst = info("target", e.target().thread(), e.target().kind(), e.target().operand(),
                        e.target().site());
                named.add(new CycleEdge(e.from(), e.to(), e.kind(), src, dst, e.late()));
                if (!e.late().isEmpty()) {
                    EventInfo l = e.late().equals("source") ? src : dst;
                    late.append(late.length() == 0 ? " Late: " : "; ").append(l.describe());
                }
            }
            String kind = analysis == Analysis.SCSER ? "sc-serializability" : "tso-serializability";
            return new Violation(kind, analysis, infos, named, advice + (late.length() == 0 ? "" : "." + late), seq);
        }

        private EventInfo info(String role, int slot, int kind, int operand, int site) {
            EventKind k = EventKind.of(kind);
            String field = switch (k.operand()) {
                case ADDRESS -> by.addressName(operand);
                case THREAD -> threadName(operand);
                case NONE -> "";
            };
            return new EventInfo(role, threadName(slot), k.label(), by.siteOf(site), field);
        }

        private String threadName(int slot) {
            int external = externalOf.applyAsInt(slot);
            return external >= 0 ? by.threadName(external) : "thread#" + slot;
        }
    }
}
