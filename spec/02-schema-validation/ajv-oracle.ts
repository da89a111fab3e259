// Ajv (draft 2020-12, all errors) as an independent oracle for the validator's verdicts.
// Specs only: the kata itself never depends on Ajv.
import { Ajv2020 } from "ajv/dist/2020.js";

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

/** Ajv's verdict on `data` against `schema` (compiled schemas are cached by Ajv). */
export function ajvValid(schema: unknown, data: unknown): boolean {
  const check = ajv.compile(schema as object | boolean);
  return check(data) === true;
}
