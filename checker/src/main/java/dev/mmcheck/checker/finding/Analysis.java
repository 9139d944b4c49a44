package dev.mmcheck.checker.finding;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The analyses that can run on one stream; each names the memory model its reports are about. The
 * first three are the store-buffer monitors; the last two check the atomicity of declared transactions
 * (Enea and Farzan 2016, docs/serializability.md).
 */
public enum Analysis {
    /** monitor_TSO of Burnim, Sen and Stergiou (Fig. 4). */
    TSO("TSO", "tso"),
    /** monitor_PSO of Burnim, Sen and Stergiou (Fig. 5), extended with Java's fences. */
    PSO("PSO", "pso"),
    /** The Sober monitor of Burckhardt and Musuvathi (Fig. 2), a second opinion on TSO. */
    SOBER("TSO", "sober"),
    /** Conflict serializability of the observed (SC) execution: a cycle in the SC conflict graph of transactions. */
    SCSER("SC", "scser"),
    /** TSO-serializability of the observed trace (Enea-Farzan Sec. 5-6): some TSO execution of it is not serializable. */
    TSOSER("TSO", "tsoser"),
    /**
     * Robustness against Java's access modes as ARM and POWER run them (RC20 with Java's modes mapped onto it;
     * Margalit et al., PLDI 2025; docs/jmm-model.md): some execution under the model is not SC.
     */
    JMM("JMM", "jmm");

    /** The option names, for messages: "tso, pso, sober, scser, tsoser, jmm". */
    public static final String NAMES = "tso, pso, sober, scser, tsoser, jmm";

    private final String model;
    private final String option;

    Analysis(String model, String option) {
        this.model = model;
        this.option = option;
    }

    /** The memory model the analysis reports violations of: "TSO", "PSO" or "SC". */
    public String model() {
        return model;
    }

    /** The name used in options and reports: tso, pso, sober, scser, tsoser. */
    public String option() {
        return option;
    }

    /** Whether this is one of the serializability checks (scser, tsoser) rather than a store-buffer monitor. */
    public boolean serializability() {
        return this == SCSER || this == TSOSER;
    }

    /**
     * A list of option names, {@code all} among them meaning every analysis, separated by any of the characters of
     * {@code separators} (the agent's models= takes ':', the command line's --models ',' and ':'): the analyses named,
     * or the first name that is none ({@link Chosen#unknown()}); each caller words its own error.
     */
    public static Chosen parseList(String list, String separators) {
        Set<Analysis> chosen = EnumSet.noneOf(Analysis.class);
        for (String name : list.split("[" + java.util.regex.Pattern.quote(separators) + "]")) {
            if (name.isBlank()) {
                continue;
            }
            if (name.trim().equalsIgnoreCase("all")) {
                chosen.addAll(EnumSet.allOf(Analysis.class));
                continue;
            }
            Analysis a = parse(name);
            if (a == null) {
                return new Chosen(chosen, name.trim());
            }
            chosen.add(a);
        }
        return new Chosen(chosen, null);
    }

    /** What {@link #parseList} read: the analyses named, and the first unknown name, or null. */
    public record Chosen(Set<Analysis> analyses, String unknown) {
    }

    /** Parses an option name; null when unknown. */
    public static Analysis parse(String name) {
        for (Analysis a : values()) {
            if (a.option.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return a;
            }
        }
        return null;
    }
}
