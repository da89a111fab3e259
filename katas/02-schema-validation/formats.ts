// The four `format`s (README task 3, "Formats"). A format only constrains strings.

export type FormatName = "date" | "date-time" | "email" | "uuid";

/** TODO: one check per format, exactly as the README defines it. */
export const FORMATS: Record<FormatName, (s: string) => boolean> = {
  date: () => {
    throw new Error("not implemented");
  },
  "date-time": () => {
    throw new Error("not implemented");
  },
  email: () => {
    throw new Error("not implemented");
  },
  uuid: () => {
    throw new Error("not implemented");
  },
};

/** TODO: true for the four supported format names. */
export function isFormatName(name: unknown): name is FormatName {
  throw new Error("not implemented");
}
