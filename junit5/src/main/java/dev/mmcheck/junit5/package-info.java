/**
 * JUnit integration: the Jupiter extension ({@code MmcheckExtension}, {@code @MmcheckStress}) and the JUnit Platform
 * listener for every engine ({@code MmcheckListener}), which mark each test's beginning and end for the agent.
 *
 * <p>Rules of this package: it uses only the runtime's {@code TestHooks} (without the agent, where the runtime is not on
 * the boot class path, it does nothing); it never parses the agent's options nor formats findings itself
 * (the agent hands it the text); only the extension fails a test, the listener only prints.
 */
package dev.mmcheck.junit5;
