package dev.mmcheck.agent;

import dev.mmcheck.agent.check.CheckerLoop;
import dev.mmcheck.agent.check.LogCount;
import dev.mmcheck.agent.check.LoopCounts;
import dev.mmcheck.agent.check.SelfCheck;
import dev.mmcheck.agent.ids.SiteTable;
import dev.mmcheck.agent.rewrite.Transformation;
import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.report.RunFacts;
import dev.mmcheck.runtime.Sampling;
import dev.mmcheck.runtime.Schedule;
import dev.mmcheck.runtime.Solo;
import dev.mmcheck.runtime.Targets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run's facts and notes, gathered once when the run ends (after the checker thread finished) from the
 * checker loop, the rewriter's counts and the runtime's: the report's {@code run} object and the notes the
 * summary prints first (what was not checked) and last (what was checked another way).
 */
final class RunEnd {

    private RunEnd() {
    }

    private static String plain(double r) {
        return new java.math.BigDecimal(Double.toString(r)).stripTrailingZeros().toPlainString();
    }

    private static String percent(double r) {
        return new java.math.BigDecimal(r * 100).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString() + "%";
    }

    /** Whether solo periods were on in this run (the report's {@code run.solo}). */
    static boolean soloOn(Options options, LoopCounts counts) {
        return options.solo() && (Solo.enabled() || counts.solo().grants() > 0);
    }

    /** The report's {@code run} object. */
    static RunFacts facts(String id, Options options, LoopCounts c, SelfCheck self, Transformation.Stats stats,
            SiteTable sites, Map<String, Long> unmodelled) {
        LoopCounts.Solo solo = c.solo();
        return new RunFacts(id,
                new RunFacts.Events(c.produced(), c.consumed(), c.unchecked(), c.added(), c.begins()),
                new RunFacts.CheckerThread(c.cpuMillis(), c.objectsTracked(), c.addressesTracked(),
                        c.total(LogCount.BACK_PRESSURE_WAITS)),
                new RunFacts.Classes(stats.instrumented.get(), stats.failed.get(), sites.size()),
                new RunFacts.Accesses(Targets.unresolved(), Targets.unloggedHandles(), c.total(LogCount.NESTED),
                        unmodelled, c.total(LogCount.LOADS_LEFT_OUT), c.total(LogCount.FENCES_LEFT_OUT)),
                new RunFacts.Solo(soloOn(options, c) ? "on" : "off", solo.grants(), c.total(LogCount.SOLO_LEFT_OUT),
                        solo.endedBy(), solo.claimMillis(), solo.ringFed(), c.total(LogCount.RING_DROPPED),
                        c.total(LogCount.RING_DROPPED_ALONE), Solo.unseenStarts(), solo.claimsUnfenced(),
                        solo.busyTogether()),
                options.overhead().value,
                options.activeSchedule() ? "active" : "os",
                new RunFacts.Sampling(options.sample(), options.sample() < 1 && options.syncAsFences() ? "fences"
                        : "addresses", c.total(LogCount.SYNC_AS_FENCES), options.sample() < 1 ? Sampling.seed() : null),
                options.activeSchedule() ? new RunFacts.ActiveSchedule(Schedule.seed(),
                        c.total(LogCount.PAUSES), c.total(LogCount.PAUSED_NANOS) / 1_000_000,
                        c.total(LogCount.PAUSES_OVER_BUDGET), c.total(LogCount.PAUSES_ALONE),
                        c.total(LogCount.PAUSES_TOGETHER))
                        : null,
                self == null ? null : new RunFacts.SelfCheck(self.reads(), self.mismatches()));
    }

    /** The summary's lines under the findings: the schedule's, and the events'. */
    static List<String> lines(RunFacts run) {
        RunFacts.ActiveSchedule active = run.active();
        RunFacts.Solo solo = run.solo();
        RunFacts.SelfCheck self = run.selfCheck();
        return List.of(active != null
                ? "mmcheck: schedule active, seed " + active.seed() + " (seed=" + active.seed() + " repeats its "
                        + "choices), " + active.pauses() + " pauses, " + active.pausedMillis() + " ms paused"
                : "mmcheck: schedule os (no pauses)",
                "mmcheck: events produced " + run.events().produced() + ", consumed " + run.events().consumed()
                + ", repeated loads left out " + run.accesses().repeatedLoadsLeftOut()
                + (solo.state().equals("on") ? ", accesses of threads running alone left out "
                        + solo.accessesLeftOut() + " (" + solo.periods() + " solo periods)" : "")
                + (self == null ? "" : ", self-check " + self.reads() + " reads, " + self.mismatches() + " mismatches"));
    }

    /** Facts with every optional group present, for {@code AgentStart.preload} to load every class they use. */
    static RunFacts preloadFacts() {
        return new RunFacts("", new RunFacts.Events(0, 0, 0, 0, 0), new RunFacts.CheckerThread(0, 0, 0, 0),
                new RunFacts.Classes(0, 0, 0), new RunFacts.Accesses(0, 0, 0, Map.of("preload", 0L), 0, 0),
                new RunFacts.Solo("off", 0, 0, Map.of(), 0, 0, 0, 0, 0, 0, Map.of()), "check", "os",
                new RunFacts.Sampling(1, "addresses", 0, 0L), new RunFacts.ActiveSchedule(0, 0, 0, 0, 0, 0),
                new RunFacts.SelfCheck(0, 0));
    }

    /**
     * The notes the summary prints first, after {@code leading} (the checker thread's own stop): what was not
     * checked, and what the user asked to check less.
     */
    static List<Note> first(List<Note> leading, Options options, CheckerLoop loop, LoopCounts c,
            Transformation.Stats stats) {
        long produced = c.produced();
        long consumed = c.consumed();
        SelfCheck self = loop.selfCheck();
        List<Note> first = new ArrayList<>(leading);
        if (loop.failure() != null) {
            first.add(Note.incomplete("checker-stopped", "", c.unchecked(), "checking stopped after "
                    + loop.failureAt() + " events: the " + c.unchecked() + " events after them were drained "
                    + "(the application did not wait) but not checked"));
        }
        if (produced != consumed) {
            first.add(Note.incomplete("events-lost", "", Math.abs(produced - consumed), "events produced ("
                    + produced + ") and consumed (" + consumed + ") differ: some events were not checked"));
        }
        if (self != null && self.mismatches() > 0) {
            first.add(Note.incomplete("self-check", "", self.mismatches(), "self-check: " + self.mismatches()
                    + " of " + self.reads() + " reads returned a value other than the checker's order implies, "
                    + "so the order the checker saw is not the run's; first: " + String.join("; ", self.examples())));
        }
        if (stats.failed.get() > 0) {
            first.add(Note.incomplete("classes-failed", "", stats.failed.get(), stats.failed.get()
                    + " classes could not be instrumented and ran unchecked (exclude them with excludes= to "
                    + "accept that): " + String.join("; ", stats.failures())));
        }
        if (c.stripesHeldAtExit() > 0) {
            first.add(Note.incomplete("unlogged-at-exit", "", c.stripesHeldAtExit(), c.stripesHeldAtExit()
                    + " address stripes were still held by running threads 2 s after the log closed at exit: "
                    + "the accesses they bracket may be unlogged"));
        }
        long nested = c.total(LogCount.NESTED);
        if (nested > 0) {
            first.add(Note.incomplete("nested-accesses", "", nested, nested
                    + " accesses ran inside another access's probes (unforeseen code between a lock probe and "
                    + "its log probe) and were not logged"));
        }
        if (Targets.unloggedHandles() > 0) {
            first.add(Note.incomplete("unlogged-handles", "", Targets.unloggedHandles(), Targets.unloggedHandles()
                    + " accesses through VarHandles whose target could not be determined (a handle with adapted "
                    + "coordinates or that the JDK cannot describe, a call shape the probes do not model, a buffer "
                    + "view whose memory could not be told) were not logged, so not checked (exclude the classes "
                    + "that use them with "
                    + "excludes= to accept that: docs/agent.md)"));
        }
        if (options.overhead() != Options.Layer.CHECK) {
            first.add(Note.incomplete("overhead", "", 0, "NOTHING CHECKED: overhead=" + options.overhead().value
                    + " measures mmcheck's own cost " + switch (options.overhead()) {
                        case REWRITE -> "of running the rewritten classes, with every probe returning at its first test "
                                + "(nothing logged)";
                        case LOG -> "of logging every event and taking the events in order on the checker thread "
                                + "(no address ids, no analysis)";
                        default -> "up to giving each accessed address its id on the checker thread (no analysis)";
                    } + "; leave overhead= out to check (docs/performance.md)"));
        }
        if (options.sample() < 1) {
            // a reduced check the user asked for: said in the first lines, as a bound reached is
            first.add(Note.degraded("sampled", "pso", 0, "SAMPLED run (sample=" + plain(options.sample()) + "): plain "
                    + "accesses logged on about " + percent(options.sample()) + " of the objects (seed "
                    + Sampling.seed() + "), " + (options.syncAsFences()
                            ? "static fields on all, synchronization whole on the objects drawn and on the others only as "
                            + "the fences it makes (sync=fences)"
                            : "synchronization and static fields on all") + ", checked under PSO only; "
                    + "races on the objects not drawn are not seen (docs/sampling.md)"));
        }
        return first;
    }

    /** The notes the summary prints last: what was checked another way, or may have been missed. */
    static List<Note> last(LoopCounts c, Map<String, Long> unmodelled) {
        List<Note> last = new ArrayList<>();
        if (!unmodelled.isEmpty()) {
            last.add(unmodelledNote(unmodelled));
        }
        if (Targets.unresolved() > 0) {
            last.add(Note.degraded("unresolved-accessors", "", Targets.unresolved(), Targets.unresolved()
                    + " accesses through field updaters or Unsafe offsets that could not be resolved to a field "
                    + "were checked under an address of their own: conflicts between them and direct accesses to "
                    + "the same field are not seen"));
        }
        long dropped = c.total(LogCount.RING_DROPPED);
        if (dropped > 0) {
            last.add(Note.degraded("solo-ring", "", dropped, dropped + " accesses left out in solo periods were not kept "
                    + "for their period's hand-over: a thread kept only its newest " + dev.mmcheck.runtime.ThreadLog.RING + " since its "
                    + "last fence, so a violation whose store came before those, with no fence after it, may be missed "
                    + "(solo=off checks every access: docs/agent.md, \"What a period keeps\")"));
        }
        if (Solo.stoppedByVirtualThreads()) {
            last.add(Note.info("solo-virtual-threads", "", 0, "solo periods stopped at the first virtual thread (their "
                    + "hand-over could wait on a parked virtual thread; docs/agent.md, \"Virtual threads\"): every "
                    + "access from then on was logged"));
        }
        if (Solo.unseenStarts() > 0) {
            last.add(Note.degraded("solo-unseen-start", "", Solo.unseenStarts(), Solo.unseenStarts() + " threads that no "
                    + "probe saw start (the JDK's or the JVM's: a cleaner's, a finalizer's, a timer's) began while another "
                    + "thread ran alone as the only thread with a log and had left out more than its hand-over ring holds: "
                    + "a violation of such a thread against a store the other made before its ring's entries, with no "
                    + "fence after it, may be missed (solo=off checks it: docs/agent.md, \"What a period keeps\")"));
        }
        return last;
    }

    /**
     * The note naming the calls into JDK methods that may synchronize and that mmcheck does not model, each treated
     * as a full fence of its thread (docs/mapping.md): a fence can only hide a finding, so a user who sees a
     * method here that matters to the code under test knows which model to ask for.
     */
    static Note unmodelledNote(Map<String, Long> counts) {
        long total = 0;
        List<String> named = new ArrayList<>();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            total += e.getValue();
            if (named.size() < 10) {
                named.add(e.getKey() + " x " + String.format(java.util.Locale.ROOT, "%,d", e.getValue()));
            }
        }
        String more = counts.size() > named.size() ? " and " + (counts.size() - named.size()) + " more" : "";
        return Note.degraded("unmodelled-calls", "", total, "calls into JDK methods mmcheck does not model, treated as "
                + "full fences: " + String.join(", ", named) + more + " (a fence can only hide a finding around the "
                + "call, never make one; docs/mapping.md, \"The JDK's memory-relevant methods\")");
    }
}
