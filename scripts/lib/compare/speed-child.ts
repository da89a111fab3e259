// Runs in a confined child process (confine.ts: the candidate's code may hang, or try anything),
// as JavaScript staged beside speed-side: measures one kata's benchmark cases on both sides of a
// comparison, each side in a worker thread of its own (speed-side.ts), and prints, as JSON on the
// last line of stdout, each case's round times on both sides.
//
//   node --single-threaded ... speed-child.mjs CASES.mjs YOURS_KATA.mjs REFERENCE_KATA.mjs yours|reference BUDGET_MS ROUNDS [MIN_BYTES-MAX_BYTES]
//
// The fourth argument is the side that goes first: its worker starts first, it warms up first and
// it runs first in even rounds (the parent runs one process each way round).
//
// A byte range keeps only the cases of that size (the self-test's shorter run).
//
// Why workers: two copies of the same code loaded in one V8 isolate disturb each other through
// what V8 shares between them (object shapes, the feedback of shared call sites): measured that
// way, identical code read from 0.7x to 2.2x depending on the case and on which copy was loaded
// first. A worker is an isolate of its own. Why one process for both: the rounds of the two
// sides then alternate in time (yours, reference, reference, yours...), so a burst of load from
// other processes hits both alike, and only one side runs at a time, so the process's CPU time
// during a round is that side's alone. Why --single-threaded (set by the parent): V8 then
// compiles and collects garbage on the thread that runs the code, not on helper threads whose
// timing varies from run to run, and the same code is optimised the same way in both workers.
import { Worker } from "node:worker_threads";
import type { SideReply, SideRequest, SideSetup } from "./speed-side.ts";

export type ChildResult = { name: string; clock: "cpu" | "wall"; yours: number[]; reference: number[] } | { name: string; error: string };

/** A side's worker, asked one thing at a time. */
function startSide(setup: SideSetup) {
  // Staged beside this file as JavaScript (confine.ts): no loader, nothing compiled at run time.
  const worker = new Worker(new URL("./speed-side.mjs", import.meta.url), { workerData: setup });
  let pending: ((reply: SideReply) => void) | undefined;
  const replies: SideReply[] = [];
  worker.on("message", (reply: SideReply) => (pending ? pending(reply) : replies.push(reply)));
  worker.on("error", (error) => pending?.({ kind: "error", message: error.message }));
  const next = () => new Promise<SideReply>((resolve) => {
    const queued = replies.shift();
    if (queued) return resolve(queued);
    pending = (reply) => {
      pending = undefined;
      resolve(reply);
    };
  });
  return {
    ready: next(),
    ask(request: SideRequest): Promise<SideReply> {
      worker.postMessage(request);
      return next();
    },
    stop: () => worker.terminate(),
  };
}

const [casesFile, yoursKata, referenceKata, first, budget, roundsArg, sizes] = process.argv.slice(2);
const results: ChildResult[] = [];
{
  const range = sizes ? (sizes.split("-").map(Number) as [number, number]) : undefined;
  const sides = first === "reference" ? (["reference", "yours"] as const) : (["yours", "reference"] as const);
  const workers = {} as Record<"yours" | "reference", ReturnType<typeof startSide>>;
  for (const side of sides) workers[side] = startSide({ casesFile, kataFile: side === "yours" ? yoursKata : referenceKata, sizes: range });
  const { yours, reference } = workers;
  const [mine, ref] = await Promise.all([yours.ready, reference.ready]);
  if (ref.kind !== "ready") throw new Error(`the reference's benchmark cases: ${ref.kind === "error" ? ref.message : ref.kind}`);
  const budgetMs = Number(budget) || 300;
  const rounds = Number(roundsArg) || 10;
  for (const name of ref.names) {
    if (mine.kind !== "ready" || !mine.names.includes(name)) {
      results.push({ name, error: mine.kind === "error" ? mine.message : "not measured" });
      continue;
    }
    try {
      const reply = (r: SideReply) => {
        if (r.kind === "error") throw new Error(r.message);
        if (r.kind === "ready") throw new Error("unexpected reply");
        return r;
      };
      // Warm-up, an eighth of the budget each, then batches sized from the reference's time per
      // operation (the same for both sides): about 0.5 ms between two clock reads. The first two
      // rounds (one in each order) are not kept: a side whose code was not yet optimised after its
      // warm-up (V8 compiles on this thread, see above) pays for it there, 20 to 40 times its time.
      const warmed = { yours: 0, reference: 0 };
      let clock: "cpu" | "wall" = "cpu";
      for (const side of sides) {
        const w = reply(await workers[side].ask({ kind: "warm", name, ms: budgetMs / 8 }));
        if (w.kind === "warm") [warmed[side], clock] = [w.msPerOp, w.clock];
      }
      const batch = Math.max(1, Math.min(10_000, Math.floor(0.5 / Math.max(warmed.reference, 1e-6))));
      const times = { yours: [] as number[], reference: [] as number[] };
      for (let round = 0; round < rounds + 2; round++) {
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          const r = reply(await workers[side].ask({ kind: "round", name, ms: budgetMs / 2 / rounds, batch }));
          if (round >= 2) times[side].push(r.msPerOp);
        }
      }
      results.push({ name, clock, ...times });
    } catch (error) {
      results.push({ name, error: (error as Error).message ?? String(error) });
    }
  }
  await Promise.all([yours.stop(), reference.stop()]);
}
console.log(JSON.stringify(results));
