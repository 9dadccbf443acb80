/**
 * How deeply a JSON value nests, checked without recursion: a model (or a session file) can send tool
 * input nested deep enough to overflow the stack of `JSON.stringify` and of any recursive walk.
 */

/** The deepest nesting mm accepts in a tool input. */
export const MAX_INPUT_DEPTH = 64;

/** True when `value` nests arrays or objects deeper than `max` levels. */
export const nestsDeeperThan = (value: unknown, max: number = MAX_INPUT_DEPTH): boolean => {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
};

/** What replaces a tool input nested too deeply: a string, so the tool's input check refuses it. */
export const TOO_DEEP_INPUT = `[tool input nested deeper than ${MAX_INPUT_DEPTH} levels, dropped]`;
