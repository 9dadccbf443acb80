/**
 * The check the AI SDK's JSON parser makes (secure-json-parse): a parsed value holding a `__proto__`
 * key, or a `constructor` key whose value has a `prototype`, is refused as a prototype-pollution
 * attempt. Used on streamed chunks (chat-chunk.ts) and on tool inputs sent back (chat-history-bytes.ts).
 */

/** A key that would reach an object's prototype, anywhere in `value`. */
export const hasForbiddenKey = (value: unknown): boolean => {
  let next: unknown[] = [value];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      if (typeof node !== "object" || node === null) continue;
      if (Object.hasOwn(node, "__proto__")) return true;
      const ctor = (node as Record<string, unknown>).constructor;
      if (Object.hasOwn(node, "constructor") && typeof ctor === "object" && ctor !== null && Object.hasOwn(ctor, "prototype")) return true;
      for (const key in node) next.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
};
