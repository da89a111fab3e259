// The environment variables through which the grader tells the test processes of a graded run
// where the sandboxes' pieces are. Runner-free, so that the grader need not load vitest to name them.

/** The folder holding each kata's folder (its bundle and the sandbox's program). */
export const SANDBOX_ROOT_ENV = "GRADE_SANDBOX_ROOT";
/** Where each test process reports what its sandboxes did (a sandbox stopped, its output). */
export const SANDBOX_REPORT_ENV = "GRADE_SANDBOX_REPORT";
/** The client (client.ts), bundled: see bridge.ts. */
export const SANDBOX_CLIENT_ENV = "GRADE_SANDBOX_CLIENT";
/** How the sandboxes are confined (confinement.ts), decided once by the grader. */
export const CONFINEMENT_ENV = "GRADE_SANDBOX_CONFINEMENT";
/** The supervisor thread's program (supervisor.mjs): the bundled client cannot find it by its own URL. */
export const SANDBOX_SUPERVISOR_ENV = "GRADE_SANDBOX_SUPERVISOR";
