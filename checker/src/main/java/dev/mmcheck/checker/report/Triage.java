package dev.mmcheck.checker.report;

import dev.mmcheck.checker.finding.Note;
import dev.mmcheck.checker.result.Category;
import dev.mmcheck.checker.result.CheckResult;
import dev.mmcheck.checker.result.EventInfo;
import dev.mmcheck.checker.result.Finding;
import dev.mmcheck.checker.result.TxInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a library author accepts once reviewed, and what fails the run (docs/report-format.md,
 * "Suppressions and baselines"): suppression rules ({@code suppress=FILE}), a baseline of known findings
 * ({@code baseline=FILE}) and the categories that fail ({@code failOn=}). Immutable; {@link #apply}
 * marks the findings and says what happened.
 *
 * @param rules    suppression rules, in file order
 * @param baseline the baseline file, or null
 * @param known    the keys the baseline holds (empty when it does not exist yet)
 * @param failOn   the categories whose new findings fail the run
 * @param partial  whether this run is one of several whose reports are merged (Surefire's forks, {@code %p} in
 *                 a report's name): then it writes no baseline (the merge does, from every run's findings) and a
 *                 rule that matched nothing here is not called unused (only the merge can say that)
 */
public record Triage(List<Rule> rules, Path baseline, Set<String> known, Set<Category> failOn, boolean partial) {

    /** A triage of a whole run (not {@link #partial}). */
    public Triage(List<Rule> rules, Path baseline, Set<String> known, Set<Category> failOn) {
        this(rules, baseline, known, failOn, false);
    }

    /** No rules, no baseline, every category fails. */
    public static Triage none() {
        return new Triage(List.of(), null, Set.of(), EnumSet.allOf(Category.class));
    }

    /** The same rules for one of several runs whose reports are merged ({@link #partial}). */
    public Triage partialRun() {
        return new Triage(rules, baseline, known, failOn, true);
    }

    /** A mistake in a suppression or baseline file: the message names the file and line. */
    public static final class TriageException extends Exception {
        private static final long serialVersionUID = 1L;

        TriageException(String message) {
            super(message);
        }
    }

    /**
     * One suppression rule: every pattern given must match. A store or access pattern matches the
     * event's {@code Class#method} (qualified or simple class name), {@code File.java:LINE}, or field
     * ({@code Class.field}, {@code Object[][]} for any element), or the {@code Class#method}, class or
     * {@code File.java:LINE} of the call that reached it when it is a helper's access; {@code field=} either side's field;
     * {@code tx=} a transaction's {@code Class#method}. Globs: {@code *} any characters, {@code ?} one.
     *
     * @param where  FILE:LINE of the rule, for messages
     * @param text   the rule as written
     */
    public record Rule(String where, String text, String store, String access, String field, String tx,
            Category category, String reason) {

        /** Whether it matches {@code f}. */
        public boolean matches(Finding f) {
            if (category != null && f.category() != category) {
                return false;
            }
            if (f.isCycle()) {
                if (store != null || access != null || field != null) {
                    return false;
                }
                if (tx != null) {
                    boolean any = false;
                    for (TxInfo x : f.first().transactions()) {
                        for (String name : names(x.site().className())) {
                            any |= glob(tx, name + "#" + x.site().method());
                        }
                    }
                    return any;
                }
                return true;
            }
            if (tx != null) {
                return false;
            }
            EventInfo s = f.first().store();
            EventInfo a = f.first().access();
            return (store == null || event(store, s)) && (access == null || event(access, a))
                    && (field == null || glob(field, normalized(s.field())) || glob(field, normalized(a.field())));
        }

        private static boolean event(String pattern, EventInfo e) {
            return site(pattern, e.site()) || (e.site().caller() != null && site(pattern, e.site().caller()))
                    || (!e.field().isEmpty() && glob(pattern, normalized(e.field())));
        }

        private static boolean site(String pattern, dev.mmcheck.checker.event.Site s) {
            for (String name : names(s.className())) {
                if (glob(pattern, name + "#" + s.method()) || glob(pattern, name)) {
                    return true;
                }
            }
            return glob(pattern, s.location());
        }
    }

    /**
     * How a run's findings were triaged.
     *
     * @param failOn the categories whose new findings fail the run (the rest are new but do not fail it)
     */
    public record Outcome(List<Finding> findings, Map<Rule, Integer> used, List<Note> notes, int failing,
            boolean baselineWritten, Set<Category> failOn) {

        /** Findings neither suppressed nor in the baseline. */
        public List<Finding> fresh() {
            return findings.stream().filter(Finding::isNew).toList();
        }
    }

    /** The findings of {@code result} with no rules and no baseline: each one new, every category failing. */
    public static Outcome untriaged(CheckResult result) {
        try {
            return none().apply(Finding.group(result.violations()));
        } catch (IOException e) {
            throw new IllegalStateException("no baseline, nothing to write", e);
        }
    }

    /** Marks {@code findings} (suppressed, baselined), writes a new baseline when asked, and says what happened. */
    public Outcome apply(List<Finding> findings) throws IOException {
        Map<Rule, Integer> used = new LinkedHashMap<>();
        int coarse = 0;
        for (Rule r : rules) {
            used.put(r, 0);
        }
        for (Finding f : findings) {
            for (Rule r : rules) {
                if (r.matches(f)) {
                    f.suppress(r.where() + " (" + r.reason() + ")");
                    used.merge(r, 1, Integer::sum);
                    break;
                }
            }
            if (!f.suppressed() && known.contains(f.key())) {
                f.baseline();
            } else if (!f.suppressed() && known.contains(f.keyWithoutCallers())) {
                // a line written without callers (by a version that did not tell helpers' callers apart, or when
                // the caller was not known) accepts the finding whatever its callers
                f.baseline();
                coarse++;
            }
        }
        List<Note> notes = new ArrayList<>();
        for (Map.Entry<Rule, Integer> e : used.entrySet()) {
            if (e.getValue() == 0 && partial) {
                // one fork of several: the code the rule is for may have run in another; the merge says
                notes.add(Note.info("suppression-unused-here", "", 0, "suppression rule at " + e.getKey().where()
                        + " matched nothing in this JVM (" + e.getKey().text() + "); whether it matched in any "
                        + "is for mmcheck merge to say"));
            } else if (e.getValue() == 0) {
                notes.add(Note.info("suppression-unused", "", 0, "suppression rule at " + e.getKey().where()
                        + " matched nothing (" + e.getKey().text() + "): the code it was written for may have "
                        + "changed; remove it or fix its patterns"));
            }
        }
        boolean written = false;
        if (baseline != null && !Files.exists(baseline) && partial) {
            // one of several JVMs: a baseline of its findings alone would make the next fork's findings "new"
            // (docs/build.md, "Forks"); the merge writes it from every fork's findings, and this run fails on none
            for (Finding f : findings) {
                if (!f.suppressed()) {
                    f.baseline();
                }
            }
            long n = findings.stream().filter(f -> !f.suppressed()).count();
            notes.add(Note.info("baseline-not-written", "", n, "baseline " + baseline + " does not exist; this JVM is "
                    + "one of several (Surefire's forks, or %p in report=) and does not write it from its own "
                    + n + " findings: mmcheck merge --baseline " + baseline + " (or the plugin's check goal) writes "
                    + "it from every fork's findings; until then no finding fails the run"));
        } else if (baseline != null && !Files.exists(baseline)) {
            TreeSet<String> keys = new TreeSet<>();
            for (Finding f : findings) {
                if (!f.suppressed()) {
                    keys.add(f.key());
                }
            }
            List<String> lines = new ArrayList<>();
            lines.add("# mmcheck baseline: one finding per line (class#method:field of store -> of access, or the");
            lines.add("# transactions of a cycle). Runs with baseline=" + baseline.getFileName()
                    + " fail only on findings not listed here.");
            lines.addAll(keys);
            if (baseline.getParent() != null) {
                Files.createDirectories(baseline.getParent());
            }
            Files.write(baseline, lines, StandardCharsets.UTF_8);
            written = true;
            for (Finding f : findings) {
                if (!f.suppressed()) {
                    f.baseline();
                }
            }
            notes.add(Note.info("baseline-written", "", keys.size(), "baseline " + baseline + " written with "
                    + keys.size() + " findings; later runs with baseline=" + baseline
                    + " fail only on findings not in it"));
        } else if (baseline != null) {
            long old = findings.stream().filter(Finding::baselined).count();
            notes.add(Note.info("baseline", "", old, old + " findings are in the baseline " + baseline
                    + " and do not fail the run; " + findings.stream().filter(Finding::isNew).count() + " are new"));
            if (coarse > 0) {
                notes.add(Note.info("baseline-without-callers", "", coarse, coarse + (coarse == 1 ? " finding is"
                        : " findings are") + " in the baseline " + baseline + " only through a line that names no "
                        + "callers, which accepts every race at those lines whatever called them (a baseline written "
                        + "before helpers were told apart by their callers): delete the file and run again to review "
                        + "them one by one"));
            }
        }
        int failing = 0;
        for (Finding f : findings) {
            if (f.isNew() && failOn.contains(f.category())) {
                failing++;
            }
        }
        return new Outcome(findings, used, notes, failing, written, failOn);
    }

    /** Reads the rules in {@code suppress} (or none when null) and the baseline (absent: to be written). */
    public static Triage load(Path suppress, Path baseline, Set<Category> failOn) throws TriageException {
        List<Rule> rules = suppress == null ? List.of() : rules(suppress);
        Set<String> known = new TreeSet<>();
        if (baseline != null) {
            try {
                for (String line : Files.readAllLines(baseline, StandardCharsets.UTF_8)) {
                    String t = line.trim();
                    if (!t.isEmpty() && !t.startsWith("#")) {
                        known.add(t);
                    }
                }
            } catch (NoSuchFileException e) {
                // written at the end of this run
            } catch (IOException e) {
                throw new TriageException("cannot read the baseline " + baseline + ": " + e.getMessage());
            }
        }
        return new Triage(rules, baseline, Set.copyOf(known), Set.copyOf(failOn), false);
    }

    private static List<Rule> rules(Path file) throws TriageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new TriageException("the suppression file " + file + " does not exist");
        } catch (IOException e) {
            throw new TriageException("cannot read the suppression file " + file + ": " + e.getMessage());
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            rules.add(rule(file + ":" + (i + 1), line));
        }
        return rules;
    }

    /** Parses one rule: {@code key=value} words, {@code reason=} last and to the end of the line. */
    static Rule rule(String where, String line) throws TriageException {
        String reason = null;
        int r = line.indexOf("reason=");
        String head = line;
        if (r >= 0) {
            reason = line.substring(r + "reason=".length()).trim();
            if (reason.length() >= 2 && reason.startsWith("\"") && reason.endsWith("\"")) {
                reason = reason.substring(1, reason.length() - 1).trim();
            }
            head = line.substring(0, r);
        }
        Map<String, String> v = new LinkedHashMap<>();
        for (String word : head.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            int eq = word.indexOf('=');
            if (eq <= 0 || eq == word.length() - 1) {
                throw new TriageException(where + ": '" + word + "' is not KEY=PATTERN (keys: store, access, field, "
                        + "tx, category, reason)");
            }
            String key = word.substring(0, eq);
            if (!List.of("store", "access", "field", "tx", "category").contains(key)) {
                throw new TriageException(where + ": unknown key '" + key + "' (keys: store, access, field, tx, "
                        + "category, reason)");
            }
            if (v.put(key, word.substring(eq + 1)) != null) {
                throw new TriageException(where + ": '" + key + "' given twice");
            }
        }
        if (reason == null || reason.isEmpty()) {
            throw new TriageException(where + ": a suppression needs a reason (reason=why this is fine, to the end "
                    + "of the line)");
        }
        if (v.isEmpty()) {
            throw new TriageException(where + ": a suppression needs at least one of store=, access=, field=, tx=, "
                    + "category=");
        }
        Category c = null;
        if (v.containsKey("category")) {
            c = Category.parse(v.get("category"));
            if (c == null) {
                throw new TriageException(where + ": unknown category '" + v.get("category")
                        + "' (race, relaxed, atomicity)");
            }
        }
        return new Rule(where, line, v.get("store"), v.get("access"), v.get("field"), v.get("tx"), c, reason);
    }

    /** The categories in {@code list} ({@code race:relaxed}, or {@code all}), or an exception naming the bad one. */
    public static Set<Category> categories(String list) throws TriageException {
        if (list.trim().equals("all")) {
            return EnumSet.allOf(Category.class);
        }
        Set<Category> out = EnumSet.noneOf(Category.class);
        for (String s : list.split("[:,]")) {
            if (s.isBlank()) {
                continue;
            }
            Category c = Category.parse(s);
            if (c == null) {
                throw new TriageException("unknown category '" + s.trim() + "' (race, relaxed, atomicity, or all)");
            }
            out.add(c);
        }
        return out;
    }

    static String normalized(String field) {
        return field.replaceAll("#\\d+", "").replaceAll("\\[\\d+]", "[]");
    }

    /**
     * The names a user may write for class {@code className}: qualified ({@code org.x.Outer$Inner}), simple
     * ({@code Outer$Inner}), as in source ({@code org.x.Outer.Inner}, {@code Outer.Inner}) and innermost
     * ({@code Inner}).
     */
    static List<String> names(String className) {
        List<String> out = new ArrayList<>();
        String simple = className.substring(className.lastIndexOf('.') + 1);
        out.add(className);
        out.add(simple);
        if (simple.indexOf('$') >= 0) {
            out.add(className.replace('$', '.'));
            out.add(simple.replace('$', '.'));
            out.add(simple.substring(simple.lastIndexOf('$') + 1));
        }
        return out;
    }

    /** JaCoCo's wildcards: {@code *} any characters, {@code ?} one. */
    static boolean glob(String glob, String name) {
        StringBuilder re = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            switch (ch) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(java.util.regex.Pattern.quote(String.valueOf(ch)));
            }
        }
        return name.matches(re.toString());
    }
}
