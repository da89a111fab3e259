// Values a runner that keeps vitest alive (scripts/lib/watch/warm-child.ts) hands to the test
// workers before each run, through vitest's `provide` / `inject`. An environment variable cannot
// do this: a warm runner's workers are started once, and a run may need a different list.
declare module "vitest" {
  export interface ProvidedContext {
    /** Full names (as in spec/manifest.json) of tests to skip in this run. */
    skipTests: string[];
  }
}

export {};
