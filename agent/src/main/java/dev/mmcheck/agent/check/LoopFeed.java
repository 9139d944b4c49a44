package dev.mmcheck.agent.check;

import dev.mmcheck.checker.engine.Checker;

/** {@link SoloFeed} of a run: the {@link CheckerLoop} and its {@link Checker}. Checker thread only. */
final class LoopFeed implements SoloFeed {

    private final CheckerLoop loop;
    private final Checker checker;

    /** The feed of {@code loop}, whose events reach {@code checker}. */
    LoopFeed(CheckerLoop loop, Checker checker) {
        this.loop = loop;
        this.checker = checker;
    }

    @Override
    public boolean drainAll() {
        return loop.drainAll();
    }

    @Override
    public boolean failed() {
        return loop.failure() != null;
    }

    @Override
    public boolean stopping() {
        return loop.stopping();
    }

    @Override
    public Thread thread() {
        return loop.thread();
    }

    @Override
    public boolean storesBuffered(int serial) {
        return checker.storesBuffered(serial);
    }

    @Override
    public void feedFence(int kind, int serial, int site) {
        loop.countAdded();
        loop.emit(kind, serial, -1, site);
    }

    @Override
    public void feedAccess(int kind, int serial, Object object, int slot, int site) {
        loop.countAdded();
        if (!loop.identifies()) {
            return; // overhead=log: nothing is looked at
        }
        loop.emit(kind, serial, loop.addresses().of(object, slot), site);
    }
}
