/**
 * What instrumented code calls, on the application's threads (docs/architecture.md, "The runtime"): the probes
 * ({@code Probes}, the facade the rewriter's {@code Probe} table lists), the stripes that make each access and its
 * event one step per address, each thread's event log ({@code ThreadLog}, its ring {@code EventRing}), solo periods
 * ({@code Solo}), sampling, schedule=active's pauses and the JDK model's synchronization objects. Loaded by the bootstrap class loader, so that
 * every class loader's instrumented code reaches it.
 *
 * <p>Rules of this package: on the hot path (a probe called for an access) nothing allocates per event, nothing
 * logs, nothing blocks except for back-pressure (a full ring, a held stripe, a solo period's hand-over), and no
 * application or instrumented code is called; the few places where JDK methods an application class may override are
 * called, and why each is safe, are listed in docs/architecture.md ("What may call back into the application"). It
 * uses nothing of mmcheck's other modules (the agent and the checker use it; PackageDependenciesTest reads the
 * sources). Memory words follow JCTools' vocabulary ({@code lv}/{@code sv}/{@code lp}/{@code sp}/{@code so}/{@code cas}
 * with a comment at each call site saying which barrier it relies on and which thread may call it); each member says
 * which thread may call it (owner only, checker thread only, any thread). A probe never throws where the instruction
 * it surrounds would not, and leaves no stripe held and no solo window open when the instruction throws (a window an
 * error the probes cannot foresee leaves open, a StackOverflowError at a probe's call, is closed at the thread's next
 * window or stripe).
 */
package dev.mmcheck.runtime;
