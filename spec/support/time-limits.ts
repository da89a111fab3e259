// The time limits of every graded run, in one place: a correct implementation's score must not
// depend on how busy the machine is.
//
// Why generous fixed limits rather than limits scaled by a measured speed of the machine: a speed
// probe measures the load of one moment, and a grade's load changes under it (in `npm test` the
// other checks start and end around a kata's run), so a scaled limit is only as good as a guess at
// the future; a fixed limit gives the same verdict to the same code every time. What makes fixed
// limits affordable is that none of them is how an asynchronous hang is caught (see IDLE_MS), so
// raising them does not make a never-settling promise cost more.
//
// Measured on the 2-core machine this repository is tested on (the references, visible specs and
// bank, each kata's code in its sandbox): the slowest test takes 1.7 s idle (kata 3's fuzz of random
// conversations, whose every model and tool call crosses the sandbox's channel) and more than 15 s
// under npm test's own load (several grades at once on two cores: each crossing then waits for a
// CPU twice). Each wall-clock limit below is 30x or more what the slowest test needs idle.

// A synchronous endless loop is ended elsewhere: in a graded run, by the sandbox's supervisor,
// which stops a kata's process when one call has kept the specs waiting for more than 5 s of that
// process's CPU time (spec/support/sandbox/client.ts), so it costs the test that made the call.

/**
 * vitest's testTimeout and hookTimeout. A synchronous test that passes after this long is failed
 * by vitest; an asynchronous test that keeps the CPU busy and never ends is failed at this time.
 */
export const TEST_TIMEOUT_MS = 60_000;

/**
 * fast-check's interruptAfterTimeLimit: a property still running after this long (most often one
 * shrinking a counterexample of a slow candidate) stops and fails with the counterexample it has,
 * which says more than vitest's timeout; it is below TEST_TIMEOUT_MS for that reason.
 */
export const FC_INTERRUPT_MS = 50_000;

/**
 * An asynchronous test whose process uses (almost) no CPU for this long is waiting on something
 * that will never happen (a promise that never settles): spec/support/graded.ts fails it then.
 * Load does not make a waiting test look idle (a test that computes uses CPU, however slowly it
 * gets it), so this stays short: it is what a hang such as the sabotage fixture never-settles
 * costs, per hung test. No spec waits on a real timer for more than a few milliseconds.
 */
export const IDLE_MS = 5_000;

/**
 * CPU time (user + system, every thread) that `run` costs the process the kata runs in, in
 * milliseconds: this process in one process with the code, the kata's sandbox in a graded run
 * (realm.ts), as the kernel accounts for it.
 */
export { cpuTimeMs } from "./realm.ts";
