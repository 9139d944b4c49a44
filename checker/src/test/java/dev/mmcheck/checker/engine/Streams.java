package dev.mmcheck.checker.engine;

import dev.mmcheck.checker.event.EventKind;
import dev.mmcheck.checker.event.Site;
import dev.mmcheck.checker.event.Symbols;

/** Hand-written event streams for the engine's tests: named threads and addresses, sites by line of X.java. */
final class Streams {

    final Symbols symbols = new Symbols();

    /** One event of {@code thread}: kind {@code k} on {@code operand} (an address or a thread name), at line. */
    void ev(Checker c, String thread, EventKind k, String operand, int line) {
        int op = switch (k.operand()) {
            case ADDRESS -> symbols.address(operand);
            case THREAD -> symbols.thread(operand);
            case NONE -> -1;
        };
        c.event(k.code(), symbols.thread(thread), op, symbols.site(Site.at("X.java", line)));
    }
}
