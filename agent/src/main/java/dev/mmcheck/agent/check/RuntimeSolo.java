package dev.mmcheck.agent.check;

import dev.mmcheck.runtime.Solo;
import dev.mmcheck.runtime.Stripes;
import dev.mmcheck.runtime.ThreadLog;

/** {@link SoloRuntime} of a run: runtime.Solo, runtime.Stripes and the threads' logs. Checker thread only. */
final class RuntimeSolo implements SoloRuntime<ThreadLog> {

    @Override
    public boolean enabled() {
        return Solo.enabled();
    }

    @Override
    public String broken() {
        return Solo.broken();
    }

    @Override
    public ThreadLog pending() {
        return Solo.pending();
    }

    @Override
    public long pendingCount() {
        return Solo.pendingCount();
    }

    @Override
    public String pendingEndedBy() {
        return Solo.pendingEndedBy();
    }

    @Override
    public void handedOver(ThreadLog log) {
        Solo.handedOver(log);
    }

    @Override
    public boolean claimed() {
        return Solo.claimed();
    }

    @Override
    public boolean claim(ThreadLog log) {
        return Solo.claim(log);
    }

    @Override
    public boolean claimedFor(ThreadLog log) {
        return Solo.claimedFor(log);
    }

    @Override
    public boolean confirm(ThreadLog log, boolean lone) {
        return Solo.confirm(log, lone);
    }

    @Override
    public void confirmNot(ThreadLog log) {
        Solo.confirmNot(log);
    }

    @Override
    public void lookedAlone(ThreadLog log, long now) {
        Solo.lookedAlone(log, now);
    }

    @Override
    public int stripes() {
        return Stripes.COUNT;
    }

    @Override
    public boolean tryLock(int s) {
        return Stripes.tryLock(s);
    }

    @Override
    public void unlock(int s) {
        Stripes.unlock(s);
    }

    @Override
    public long produced(ThreadLog log) {
        return log.lvProducerIndex(); // volatile: its events' slots are visible
    }

    @Override
    public long consumed(ThreadLog log) {
        return log.lpConsumerIndex(); // the checker's own index
    }

    @Override
    public long holdAt(ThreadLog log) {
        return log.lvHoldAt();
    }

    @Override
    public void releaseHold(ThreadLog log) {
        log.releaseHold();
    }

    @Override
    public int ringSize(ThreadLog log) {
        return log.ringSize();
    }

    @Override
    public int ringKind(ThreadLog log, int i) {
        return log.ringKind(i);
    }

    @Override
    public Object ringObject(ThreadLog log, int i) {
        return log.ringObject(i);
    }

    @Override
    public int ringSlot(ThreadLog log, int i) {
        return log.ringSlot(i);
    }

    @Override
    public int ringSite(ThreadLog log, int i) {
        return log.ringSite(i);
    }

    @Override
    public int ringFence(ThreadLog log) {
        return log.ringFence();
    }

    @Override
    public int ringFenceSite(ThreadLog log) {
        return log.ringFenceSite();
    }

    @Override
    public void clearRing(ThreadLog log) {
        log.clearRing();
    }

    @Override
    public int serial(ThreadLog log) {
        return log.serial();
    }

    @Override
    public String name(ThreadLog log) {
        return log.name();
    }

    @Override
    public Thread thread(ThreadLog log) {
        return log.thread();
    }
}
