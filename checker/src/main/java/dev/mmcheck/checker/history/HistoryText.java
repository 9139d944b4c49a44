package dev.mmcheck.checker.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text format of histories (docs/history.md):
 *
 * <pre>
 *   # store buffering: TSO but not SC
 *   threads t0 t1            # optional: then every thread must be declared
 *   vars x y=0               # optional: then every variable must be declared (initial value 0 unless given)
 *   t0: write(x,1) @ 100 120 # thread, operation, optional issue and complete times
 *   t0: read(y,0)  @ 130 150
 *   t1: w y 1; r x 0         # short forms; several operations of one thread per line
 * </pre>
 *
 * Lines of one thread are in its program order; lines of different threads may interleave freely.
 */
public final class HistoryText {

    private static final String NAME = "[A-Za-z_$][\\w$.\\[\\]-]*";
    private static final Pattern THREAD_LINE = Pattern.compile("(" + NAME + ")\\s*:(.*)");
    private static final Pattern DECL = Pattern.compile("(threads|vars)(\\s.*|)");
    private static final Pattern NAME_P = Pattern.compile(NAME);
    private static final Pattern VAR_DECL = Pattern.compile("(" + NAME + ")(?:\\s*=\\s*(\\S+))?");
    private static final String TIMES = "(?:\\s*@\\s*(\\[)?\\s*(\\S+?)\\s*(?:,\\s*|\\s+)(\\S+?)\\s*(\\])?)?";
    private static final Pattern OP_CALL = Pattern.compile(
            "(\\w+)\\s*\\(\\s*(" + NAME + ")\\s*,\\s*([^,()\\s]+)\\s*\\)" + TIMES);
    private static final Pattern OP_WORDS = Pattern.compile("(\\w+)\\s+(" + NAME + ")\\s+([^\\s@]+)" + TIMES);

    /** How names may be spelled, for messages. */
    static final String NAME_RULE = "(a letter, _ or $, then letters, digits, _ $ . [ ] -)";

    private HistoryText() {
    }

    /** Whether {@code s} is a valid thread or variable name. */
    static boolean validName(String s) {
        return NAME_P.matcher(s).matches();
    }

    /** Reads the history called {@code source} from {@code in}. */
    public static History read(String source, Reader in) throws IOException, HistoryFormatException {
        History.Builder b = History.builder(source);
        BufferedReader r = new BufferedReader(in);
        boolean threadsDeclared = false;
        boolean varsDeclared = false;
        boolean sawOp = false;
        String raw;
        int n = 0;
        while ((raw = r.readLine()) != null) {
            n++;
            int hash = raw.indexOf('#');
            String text = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (text.isEmpty()) {
                continue;
            }
            Matcher decl = DECL.matcher(text);
            if (decl.matches()) {
                String kind = decl.group(1);
                String rest = decl.group(2).strip();
                if (sawOp) {
                    throw new HistoryFormatException(source, n, "declare " + kind + " before the first operation");
                }
                if (rest.isEmpty()) {
                    throw new HistoryFormatException(source, n, "'" + kind + "' needs at least one name");
                }
                if (kind.equals("threads")) {
                    if (threadsDeclared) {
                        throw new HistoryFormatException(source, n, "threads are declared twice");
                    }
                    threadsDeclared = true;
                    for (String name : rest.split("[\\s,]+")) {
                        if (!NAME_P.matcher(name).matches()) {
                            throw new HistoryFormatException(source, n, "'" + name + "' is not a thread name "
                                    + NAME_RULE);
                        }
                        if (b.hasThread(name)) {
                            throw new HistoryFormatException(source, n, "thread '" + name + "' is declared twice");
                        }
                        b.thread(name);
                    }
                } else {
                    if (varsDeclared) {
                        throw new HistoryFormatException(source, n, "variables are declared twice");
                    }
                    varsDeclared = true;
                    for (String item : rest.replaceAll("\\s*=\\s*", "=").split("[\\s,]+")) {
                        Matcher m = VAR_DECL.matcher(item);
                        if (!m.matches()) {
                            throw new HistoryFormatException(source, n, "'" + item
                                    + "' is not a variable declaration (expected NAME or NAME=INITIAL)");
                        }
                        if (b.hasVariable(m.group(1))) {
                            throw new HistoryFormatException(source, n, "variable '" + m.group(1)
                                    + "' is declared twice");
                        }
                        long init = m.group(2) == null ? 0 : number(source, n, m.group(2), "initial value");
                        b.variable(m.group(1), init);
                    }
                }
                continue;
            }
            Matcher tl = THREAD_LINE.matcher(text);
            if (!tl.matches()) {
                throw new HistoryFormatException(source, n,
                        "expected 'THREAD: OPERATION' (e.g. 't0: write(x,1)'), 'threads ...' or 'vars ...'");
            }
            String thread = tl.group(1);
            if (threadsDeclared && !b.hasThread(thread)) {
                throw new HistoryFormatException(source, n, "unknown thread '" + thread + "' (declared: "
                        + String.join(", ", b.threadNames()) + ")");
            }
            String body = tl.group(2).strip();
            if (body.isEmpty()) {
                throw new HistoryFormatException(source, n, "thread " + thread + " has no operation on this line");
            }
            int t = b.thread(thread);
            for (String opText : body.split(";")) {
                String op = opText.strip();
                if (op.isEmpty()) {
                    throw new HistoryFormatException(source, n, "empty operation between ';'");
                }
                operation(b, source, n, t, op, varsDeclared);
                sawOp = true;
            }
        }
        return b.build();
    }

    private static void operation(History.Builder b, String source, int line, int t, String op, boolean varsDeclared)
            throws HistoryFormatException {
        Matcher m = OP_CALL.matcher(op);
        if (!m.matches()) {
            m = OP_WORDS.matcher(op);
            if (!m.matches()) {
                String first = op.split("[\\s(]+", 2)[0];
                if (!isKind(first)) {
                    throw new HistoryFormatException(source, line, "unknown operation '" + first
                            + "' (expected read or write, e.g. 'write(x,1)', 'read(y,0) @ 10 20' or 'w x 1')");
                }
                throw new HistoryFormatException(source, line, "malformed operation '" + op
                        + "' (expected e.g. 'write(x,1)', 'read(y,0) @ 10 20' or 'w x 1')");
            }
        }
        String kind = m.group(1);
        if (!isKind(kind)) {
            throw new HistoryFormatException(source, line, "unknown operation '" + kind
                    + "' (expected read or write, e.g. 'write(x,1)' or 'r y 0')");
        }
        String var = m.group(2);
        if (varsDeclared && !b.hasVariable(var)) {
            throw new HistoryFormatException(source, line, "unknown variable '" + var + "' (declared: "
                    + String.join(", ", b.variableNames()) + ")");
        }
        long value = number(source, line, m.group(3), "value");
        long issue = History.NO_TIME;
        long complete = History.NO_TIME;
        if (m.group(5) != null) {
            if ((m.group(4) == null) != (m.group(7) == null)) {
                throw new HistoryFormatException(source, line, "unbalanced '[' in the times of '" + op + "'");
            }
            issue = number(source, line, m.group(5), "issue time");
            complete = number(source, line, m.group(6), "complete time");
            if (issue == History.NO_TIME || complete == History.NO_TIME) {
                throw new HistoryFormatException(source, line, "time " + Long.MIN_VALUE + " is reserved");
            }
        }
        int v = b.variable(var);
        if (kind.startsWith("w")) {
            b.write(t, v, value, issue, complete, line);
        } else {
            b.read(t, v, value, issue, complete, line);
        }
    }

    private static boolean isKind(String k) {
        return k.equals("r") || k.equals("read") || k.equals("w") || k.equals("write");
    }

    private static long number(String source, int line, String s, String what) throws HistoryFormatException {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new HistoryFormatException(source, line, what + " '" + s + "' is not an integer"
                    + (s.matches("-?\\d+") ? " that fits in 64 bits" : ""));
        }
    }

    /** Writes {@code h} in the text format, declaring its threads and variables; {@link #read} reads it back. */
    public static void write(History h, Writer out) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("threads");
        for (int t = 0; t < h.threads(); t++) {
            s.append(' ').append(h.threadName(t));
        }
        s.append('\n');
        if (h.vars() > 0) {
            s.append("vars");
            for (int v = 0; v < h.vars(); v++) {
                s.append(' ').append(h.varName(v)).append('=').append(h.initValue(v));
            }
            s.append('\n');
        }
        out.write(s.toString());
        for (int id = 0; id < h.size(); id++) {
            Op o = h.op(id);
            s.setLength(0);
            s.append(h.threadName(o.thread())).append(": ").append(o.write() ? "write(" : "read(")
                    .append(h.varName(o.var())).append(',').append(o.value()).append(')');
            if (h.timed()) {
                s.append(" @ ").append(o.issue()).append(' ').append(o.complete());
            }
            s.append('\n');
            out.write(s.toString());
        }
    }

    /** {@link #write(History, Writer)} to a string. */
    public static String toString(History h) {
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            write(h, w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
