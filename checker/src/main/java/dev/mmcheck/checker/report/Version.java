package dev.mmcheck.checker.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version of mmcheck, as the build stamped it. */
public final class Version {

    private static final String VERSION = load();

    private Version() {
    }

    /** E.g. {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/mmcheck-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
