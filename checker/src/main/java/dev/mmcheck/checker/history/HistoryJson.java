package dev.mmcheck.checker.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of histories (docs/history.md):
 *
 * <pre>
 * {"vars": {"x": 0, "y": 0},
 *  "threads": {"t0": [{"op": "write", "var": "x", "value": 1, "issue": 100, "complete": 120},
 *                     {"op": "read",  "var": "y", "value": 0, "issue": 130, "complete": 150}],
 *              "t1": [...]}}
 * </pre>
 *
 * {@code vars} is optional; when present every variable used must be declared in it. Times are
 * optional, but either every operation has both or none has any.
 */
public final class HistoryJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private HistoryJson() {
    }

    private record RawOp(int line, String op, String var, Long value, Long issue, Long complete) {
    }

    /** Reads the history called {@code source} from {@code in}. */
    public static History read(String source, Reader in) throws IOException, HistoryFormatException {
        Map<String, long[]> vars = null; // name -> {init, line}
        Map<String, List<RawOp>> threads = null;
        try (JsonParser p = FACTORY.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(source, p, "a history in JSON is an object with \"threads\" (and optionally \"vars\")");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("vars")) {
                    if (value != JsonToken.START_OBJECT) {
                        throw error(source, p, "\"vars\" must be an object mapping each variable to its initial value");
                    }
                    vars = new LinkedHashMap<>();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        int line = line(p);
                        if (!HistoryText.validName(name)) {
                            throw error(source, p, "'" + name + "' is not a variable name " + HistoryText.NAME_RULE);
                        }
                        if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                            throw error(source, p, "the initial value of variable '" + name + "' must be an integer");
                        }
                        if (vars.put(name, new long[] {longValue(source, p, "initial value"), line}) != null) {
                            throw error(source, p, "variable '" + name + "' is declared twice");
                        }
                    }
                } else if (field.equals("threads")) {
                    if (value != JsonToken.START_OBJECT) {
                        throw error(source, p, "\"threads\" must be an object mapping each thread to its operations");
                    }
                    threads = new LinkedHashMap<>();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        if (!HistoryText.validName(name)) {
                            throw error(source, p, "'" + name + "' is not a thread name " + HistoryText.NAME_RULE);
                        }
                        if (p.nextToken() != JsonToken.START_ARRAY) {
                            throw error(source, p, "thread '" + name + "' must map to an array of operations");
                        }
                        List<RawOp> ops = new ArrayList<>();
                        if (threads.put(name, ops) != null) {
                            throw error(source, p, "thread '" + name + "' appears twice");
                        }
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            ops.add(op(source, p));
                        }
                    }
                } else {
                    throw error(source, p, "unknown field \"" + field + "\" (expected \"vars\" or \"threads\")");
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw error(source, p, "unexpected content after the history object");
            }
        } catch (JsonParseException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new HistoryFormatException(source, line, "malformed JSON: " + e.getOriginalMessage()
                    .replaceAll("\\s+", " "));
        }
        if (threads == null) {
            throw new HistoryFormatException(source, 0, "no \"threads\" in the history");
        }
        History.Builder b = History.builder(source);
        if (vars != null) {
            for (Map.Entry<String, long[]> v : vars.entrySet()) {
                b.variable(v.getKey(), v.getValue()[0]);
            }
        }
        for (Map.Entry<String, List<RawOp>> t : threads.entrySet()) {
            int tid = b.thread(t.getKey());
            for (RawOp o : t.getValue()) {
                if (vars != null && !vars.containsKey(o.var())) {
                    throw new HistoryFormatException(source, o.line(), "unknown variable '" + o.var()
                            + "' (declared: " + String.join(", ", vars.keySet()) + ")");
                }
                int v = b.variable(o.var());
                long issue = o.issue() == null ? History.NO_TIME : o.issue();
                long complete = o.complete() == null ? History.NO_TIME : o.complete();
                if (o.op().startsWith("w")) {
                    b.write(tid, v, o.value(), issue, complete, o.line());
                } else {
                    b.read(tid, v, o.value(), issue, complete, o.line());
                }
            }
        }
        return b.build();
    }

    private static RawOp op(String source, JsonParser p) throws IOException, HistoryFormatException {
        int line = line(p);
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw error(source, p, "an operation must be an object like {\"op\": \"write\", \"var\": \"x\", "
                    + "\"value\": 1}");
        }
        String op = null;
        String var = null;
        Long value = null;
        Long issue = null;
        Long complete = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            switch (f) {
                case "op":
                    op = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    if (op == null || !(op.equals("read") || op.equals("write") || op.equals("r") || op.equals("w"))) {
                        throw error(source, p, "\"op\" must be \"read\" or \"write\"");
                    }
                    break;
                case "var":
                    if (t != JsonToken.VALUE_STRING || !HistoryText.validName(p.getText())) {
                        throw error(source, p, "\"var\" must be a variable name " + HistoryText.NAME_RULE);
                    }
                    var = p.getText();
                    break;
                case "value":
                case "issue":
                case "complete":
                    if (t != JsonToken.VALUE_NUMBER_INT) {
                        throw error(source, p, "\"" + f + "\" must be an integer");
                    }
                    long x = longValue(source, p, f);
                    if (f.equals("value")) {
                        value = x;
                    } else {
                        if (x == History.NO_TIME) {
                            throw error(source, p, "time " + Long.MIN_VALUE + " is reserved");
                        }
                        if (f.equals("issue")) {
                            issue = x;
                        } else {
                            complete = x;
                        }
                    }
                    break;
                default:
                    throw error(source, p, "unknown field \"" + f + "\" in an operation (expected op, var, value, "
                            + "issue, complete)");
            }
        }
        String missing = op == null ? "op" : var == null ? "var" : value == null ? "value" : null;
        if (missing != null) {
            throw new HistoryFormatException(source, line, "operation without \"" + missing + "\"");
        }
        return new RawOp(line, op, var, value, issue, complete);
    }

    private static long longValue(String source, JsonParser p, String what) throws IOException,
            HistoryFormatException {
        if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
            throw error(source, p, what + " " + p.getText() + " does not fit in 64 bits");
        }
        return p.getLongValue();
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation() == null ? 0 : p.currentTokenLocation().getLineNr();
    }

    private static HistoryFormatException error(String source, JsonParser p, String what) {
        return new HistoryFormatException(source, line(p), what);
    }

    /** Writes {@code h} as JSON; {@link #read} reads it back. */
    public static void write(History h, Writer out) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeObjectFieldStart("vars");
            for (int v = 0; v < h.vars(); v++) {
                g.writeNumberField(h.varName(v), h.initValue(v));
            }
            g.writeEndObject();
            g.writeObjectFieldStart("threads");
            for (int t = 0; t < h.threads(); t++) {
                g.writeArrayFieldStart(h.threadName(t));
                for (int id = h.threadStart(t); id < h.threadStart(t + 1); id++) {
                    Op o = h.op(id);
                    g.writeRaw('\n');
                    g.writeStartObject();
                    g.writeStringField("op", o.write() ? "write" : "read");
                    g.writeStringField("var", h.varName(o.var()));
                    g.writeNumberField("value", o.value());
                    if (h.timed()) {
                        g.writeNumberField("issue", o.issue());
                        g.writeNumberField("complete", o.complete());
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        out.write('\n');
    }
}
