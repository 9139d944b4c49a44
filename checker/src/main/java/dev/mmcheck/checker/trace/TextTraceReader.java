package dev.mmcheck.checker.trace;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.EventSink;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the text trace format (docs/trace-format.md): one event per line,
 *
 * <pre>
 *   THREAD OPERATION [OPERAND] [FILE:LINE [METHOD] [via FILE:LINE [METHOD]]]    # comment
 *   dead ADDRESS
 * </pre>
 *
 * in the order the checker must see them. An event without a site gets the trace line as its site; {@code via}
 * names the call that reached a helper's access ({@link Site#caller()}).
 * Each line is checked as it is read; the first bad one stops the reading with a
 * {@link TraceFormatException} naming the file and line. Not thread-safe.
 */
public final class TextTraceReader {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_$][\\w$.#\\[\\]@-]*");
    private static final Pattern SITE = Pattern.compile("[^\\s:]+:\\d+");
    private static final Pattern METHOD = Pattern.compile("[A-Za-z_$][\\w$.<>]*[.#][\\w$<>]+");
    private static final Pattern MODE = Pattern.compile("[a-z]+(-[a-z]+)*");

    private final String name;
    private final Symbols symbols;
    private final EventSink sink;

    // per thread id: line of its first event, line of the start naming it, line of its end (0 when none)
    private final Map<Integer, Integer> firstLine = new HashMap<>();
    private final Map<Integer, Integer> startLine = new HashMap<>();
    private final Map<Integer, Integer> endLine = new HashMap<>();
    private long events;

    private TextTraceReader(String name, Symbols symbols, EventSink sink) {
        this.name = name;
        this.symbols = symbols;
        this.sink = sink;
    }

    /**
     * Reads the trace called {@code name} from {@code in}, defining its names in {@code symbols} and
     * feeding its events to {@code sink}; returns the number of events.
     */
    public static long read(String name, Reader in, Symbols symbols, EventSink sink)
            throws IOException, TraceFormatException {
        TextTraceReader r = new TextTraceReader(name, symbols, sink);
        BufferedReader b = new BufferedReader(in);
        String line;
        int n = 0;
        while ((line = b.readLine()) != null) {
            n++;
            r.line(n, line);
        }
        return r.events;
    }

    private void line(int n, String raw) throws TraceFormatException {
        int hash = raw.indexOf('#');
        // a '#' inside a token (Node#3.next, Class#method) is not a comment: only one after whitespace or at 0
        while (hash > 0 && !Character.isWhitespace(raw.charAt(hash - 1))) {
            hash = raw.indexOf('#', hash + 1);
        }
        String text = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
        if (text.isEmpty()) {
            return;
        }
        String[] tok = text.split("\\s+");
        if (tok[0].equals("dead")) {
            if (tok.length != 2 || !NAME.matcher(tok[1]).matches()) {
                throw error(n, "expected 'dead ADDRESS'");
            }
            sink.event(EventKind.ADDRESS_DEAD.code(), 0, symbols.address(tok[1]), symbols.site(Site.at(name, n)));
            events++;
            return;
        }
        if (!NAME.matcher(tok[0]).matches()) {
            throw error(n, "'" + tok[0] + "' is not a thread name");
        }
        if (tok.length < 2) {
            throw error(n, "thread " + tok[0] + " has no operation");
        }
        String word = tok[1];
        String mode;
        int colon = word.indexOf(':');
        if (colon >= 0) {
            // LABEL:MODE, a mode with no word of its own (TextTraceWriter.word)
            mode = word.substring(colon + 1);
            word = word.substring(0, colon);
            if (!MODE.matcher(mode).matches()) {
                throw error(n, "'" + mode + "' in '" + tok[1] + "' is not a mode (lower-case words joined by '-')");
            }
        } else {
            mode = mode(word);
        }
        EventKind kind = EventKind.parse(word);
        if (kind == null || kind == EventKind.ADDRESS_DEAD || (colon >= 0 && !kind.label().equals(word))) {
            throw error(n, "unknown operation '" + tok[1] + "'");
        }
        int i = 2;
        String operand = null;
        if (kind.operand() != EventKind.Operand.NONE) {
            if (tok.length <= i || SITE.matcher(tok[i]).matches()) {
                throw error(n, kind.label() + " needs " + (kind.operand() == EventKind.Operand.THREAD
                        ? "a thread" : "an address"));
            }
            operand = tok[i++];
            if (!NAME.matcher(operand).matches()) {
                throw error(n, "'" + operand + "' is not a valid " + kind.operand().name().toLowerCase());
            }
        }
        Site site = new Site("", "", name, n, -1, mode);
        if (i < tok.length) {
            int[] next = {i};
            site = site(n, tok, next, mode);
            i = next[0];
            if (i < tok.length && tok[i].equals("via")) {
                if (i + 1 >= tok.length) {
                    throw error(n, "'via' needs the site of the call (File.java:12 [Class.method])");
                }
                next[0] = i + 1;
                site = site.calledFrom(site(n, tok, next, ""));
                i = next[0];
            }
            if (i < tok.length) {
                throw error(n, "unexpected '" + tok[i] + "' at the end of the line");
            }
        }
        int thread = symbols.thread(tok[0]);
        checkOrder(n, thread, tok[0], kind, operand);
        int op = -1;
        if (kind.operand() == EventKind.Operand.ADDRESS) {
            op = symbols.address(operand);
        } else if (kind.operand() == EventKind.Operand.THREAD) {
            op = symbols.thread(operand);
        }
        sink.event(kind.code(), thread, op, symbols.site(site));
        events++;
    }

    /** The site {@code FILE:LINE [CLASS.METHOD]} at {@code tok[at[0]]}, moving {@code at[0]} past it. */
    private Site site(int n, String[] tok, int[] at, String mode) throws TraceFormatException {
        int i = at[0];
        if (!SITE.matcher(tok[i]).matches()) {
            throw error(n, "unexpected '" + tok[i] + "' (a site looks like File.java:12)");
        }
        String[] fl = tok[i].split(":");
        int lineNo;
        try {
            lineNo = Integer.parseInt(fl[1]);
        } catch (NumberFormatException e) {
            throw error(n, "line number in '" + tok[i] + "' is too large");
        }
        i++;
        String cls = "";
        String method = "";
        if (i < tok.length && !tok[i].equals("via")) {
            if (!METHOD.matcher(tok[i]).matches()) {
                throw error(n, "unexpected '" + tok[i] + "' after the site (a method looks like Class.method)");
            }
            int dot = Math.max(tok[i].lastIndexOf('#'), tok[i].lastIndexOf('.'));
            cls = tok[i].substring(0, dot);
            method = tok[i].substring(dot + 1);
            i++;
        }
        at[0] = i;
        return new Site(cls, method, fl[0], lineNo, -1, mode);
    }

    private void checkOrder(int n, int thread, String threadName, EventKind kind, String operand)
            throws TraceFormatException {
        Integer end = endLine.get(thread);
        if (end != null) {
            throw error(n, threadName + " has an event after its end at line " + end);
        }
        firstLine.putIfAbsent(thread, n);
        if (kind == EventKind.THREAD_END) {
            endLine.put(thread, n);
        }
        if (kind == EventKind.THREAD_START || kind == EventKind.THREAD_JOIN) {
            if (operand.equals(threadName)) {
                throw error(n, threadName + " cannot " + kind.label() + " itself");
            }
            int other = symbols.thread(operand);
            if (kind == EventKind.THREAD_START) {
                Integer started = startLine.get(other);
                if (started != null) {
                    throw error(n, operand + " was already started at line " + started);
                }
                Integer ran = firstLine.get(other);
                if (ran != null) {
                    throw error(n, operand + " is started here but already ran at line " + ran);
                }
                startLine.put(other, n);
                firstLine.put(other, n);
            } else {
                if (!firstLine.containsKey(other)) {
                    throw error(n, "join of " + operand + ", a thread with no events so far");
                }
                endLine.putIfAbsent(other, n);
            }
        }
    }

    private TraceFormatException error(int line, String what) {
        return new TraceFormatException(name + ":" + line, what);
    }

    /**
     * The access mode an operation's word names beyond its kind ({@link Site#mode()}, {@link
     * dev.mmcheck.checker.event.SiteModes}), or empty; {@link TextTraceWriter#word} is the inverse for the canonical
     * words. The words without a mode keep reading as they always did ({@code storestore-fence}, {@code load-fence}:
     * a fence whose flavour the trace does not say).
     */
    static String mode(String word) {
        switch (word.toLowerCase(java.util.Locale.ROOT)) {
            case "volatile-load":
            case "get":
                return "volatile";
            case "load-acquire":
            case "acquire-fence":
                return "acquire";
            case "opaque-load":
            case "opaque-store":
                return "opaque";
            case "release-fenced-store":
            case "release-fence":
            case "store-fence":
                return "release";
            case "storestore-only-fence":
                return "storestore";
            case "loadload-fence":
                return "loadload";
            case "cas-acquire":
            case "cas-release":
            case "cas-plain":
            case "cas-failed":
            case "cas-acquire-failed":
            case "cas-release-failed":
            case "cas-plain-failed":
                return word.toLowerCase(java.util.Locale.ROOT).substring("cas-".length());
            case "juc-optimistic-read":
            case "juc-validate":
            case "juc-write-lock":
                return word.toLowerCase(java.util.Locale.ROOT).substring("juc-".length());
            default:
                return "";
        }
    }
}
