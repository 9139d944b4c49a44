package dev.mmcheck.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import org.slf4j.Logger;

/**
 * The agent's logger: SLF4J over a Logback context of its own, configured here, so that the
 * application's logging configuration (logback.xml, other bindings) neither affects nor sees it.
 * Messages go to the process's standard error as plain lines: the stream as it was when the agent
 * started, not whatever {@code System.err} is at exit (a test runner such as Surefire replaces it while
 * tests run and no longer reads it when the shutdown hook prints the summary). Used off the hot path only.
 */
final class AgentLog {

    private AgentLog() {
    }

    /** A logger writing {@code %msg%n} to System.err as it is now. */
    static Logger create() {
        java.io.PrintStream stderr = System.err;
        LoggerContext ctx = new LoggerContext();
        ctx.setName("mmcheck");
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%msg%n");
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>() {
            @Override
            protected void closeOutputStream() {
                flush(); // never close the process's standard error
            }

            private void flush() {
                stderr.flush();
            }
        };
        appender.setContext(ctx);
        appender.setName("stderr");
        appender.setOutputStream(stderr);
        appender.setImmediateFlush(true);
        appender.setEncoder(encoder);
        appender.start();
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        ctx.start();
        return ctx.getLogger("mmcheck");
    }
}
