/**
 * Secrets out of what a tool call makes: the host gives the engine one function that replaces every
 * secret it holds in a text (`TurnSettings.redact`), and the engine applies it where results and what
 * the editor is shown are made, so no tool (built in, MCP, an embedder's) can hand one on: the result
 * the model reads and the session keeps, the diffs, the live output, the titles.
 */
/** Replaces every secret in a text; the same string when it holds none. */
export type Redact = (text: string) => string;

const deep = (redact: Redact, value: unknown): unknown => {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = deep(redact, item);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Image data is base64: a secret cannot be read in it as text, and a cut would break the image.
    const next = key === "images" ? item : deep(redact, item);
    if (next !== item) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
};

/** `value` with `redact` applied to every string in it (images left as they are); the same value when none changed. */
export const redactDeep = <T>(redact: Redact, value: T): T => deep(redact, value) as T;
