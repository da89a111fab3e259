// Kata 1 as the specs see it in a graded run: the same public API as the stub, each function a
// call into the kata's sandbox process (spec/support/sandbox/). The error class is the specs' own
// copy of the contract's: an error the kata throws arrives as an instance of it, and one a spec's
// tool throws reaches the kata as an instance of the kata's own.
import type * as Kata from "../../katas/01-regex-dispatch/index.ts";
import { loadKata } from "../support/sandbox/bridge.ts";

export type {
  Value, Span, CallSyntax, ParsedCall, ParseError, ParseResult, ParamSpec, ToolDefinition,
  Registry, ErrorCode, ToolError, CallResult, DispatchResult,
} from "../../katas/01-regex-dispatch/index.ts";

/** Thrown by a tool (or by the dispatcher) when the arguments are not acceptable. */
export class BadArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadArgumentsError";
  }
}

const kata = await loadKata("01-regex-dispatch", { classes: { BadArgumentsError }, methods: ["lookup", "names", "run"] });

export const parseToolCalls = kata.export<typeof Kata.parseToolCalls>("parseToolCalls");
export const createRegistry = kata.export<typeof Kata.createRegistry>("createRegistry");
export const dispatch = kata.export<typeof Kata.dispatch>("dispatch");
export const calculate = kata.export<typeof Kata.calculate>("calculate");
export const calculateTool = kata.export<typeof Kata.calculateTool>("calculateTool");
