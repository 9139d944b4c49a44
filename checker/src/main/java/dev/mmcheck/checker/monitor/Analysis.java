package dev.mmcheck.checker.monitor;

import java.util.Locale;

/** The analyses that can run on one stream; each names the memory model its reports are about. */
public enum Analysis {
    /** monitor_TSO of Burnim, Sen and Stergiou (Fig. 4). */
    TSO("TSO", "tso"),
    /** monitor_PSO of Burnim, Sen and Stergiou (Fig. 5), extended with Java's fences. */
    PSO("PSO", "pso"),
    /** The Sober monitor of Burckhardt and Musuvathi (Fig. 2), a second opinion on TSO. */
    SOBER("TSO", "sober");

    private final String model;
    private final String option;

    Analysis(String model, String option) {
        this.model = model;
        this.option = option;
    }

    /** The memory model the analysis reports violations of: "TSO" or "PSO". */
    public String model() {
        return model;
    }

    /** The name used in options and reports: tso, pso, sober. */
    public String option() {
        return option;
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
