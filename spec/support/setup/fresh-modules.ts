// The grader runs several spec files of a kata one after the other in one test process (starting
// a process per file was most of a grade's time). Each file must still start as it would in a
// process of its own, whatever the previous file left: every module is dropped (the graded code is
// evaluated afresh, its module state new), and the test runner's own patches are undone (fake
// timers, spies, stubbed globals and environment variables). It must be the first setup file: the
// next ones and the spec file then load afresh.
import { vi } from "vitest";

vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.resetModules();
