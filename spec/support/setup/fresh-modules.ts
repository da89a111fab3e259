// The grader runs several spec files of a kata one after the other in one test process (starting
// a process per file was most of a grade's time). Dropping every module the previous file loaded
// gives each file the graded code freshly evaluated, its module state new, as in a process of its
// own. It must be the first setup file: the next ones and the spec file then load afresh.
import { vi } from "vitest";

vi.resetModules();
