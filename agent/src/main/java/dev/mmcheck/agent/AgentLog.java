package dev.mmcheck.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.Logger;

/**
 * The agent's logger: SLF4J over a Logback context of its own, configured here, so that the
 * application's logging configuration (logback.xml, other bindings) neither affects nor sees it.
 * Messages go to standard error as plain lines. Used off the hot path only.
 */
final class AgentLog {

    private AgentLog() {
    }

    /** A logger writing {@code %msg%n} to System.err. */
    static Logger create() {
        LoggerContext ctx = new LoggerContext();
        ctx.setName("mmcheck");
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(ctx);
        appender.setName("stderr");
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        ctx.start();
        return ctx.getLogger("mmcheck");
    }
}
