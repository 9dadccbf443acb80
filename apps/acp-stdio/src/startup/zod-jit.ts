/**
 * zod's compiled parsers off until the first answer is written. On its first parse, zod v4 compiles a
 * fast parser for each object schema with `new Function`, code V8's cache never holds: for the
 * `initialize` request's schemas, about 1.3 ms of every start-up (apps/acp-stdio/bench/time-startup.ts),
 * to parse one message. Under zod's own `jitless` setting the same schemas parse through its
 * interpreted path, to the same data and the same issues (src/startup/zod-jit.test.ts). A schema takes
 * the setting when it is built (the SDK's are built on first use, build-plugins/lazy-schemas.mjs), so
 * those built after the first answer are compiled as before.
 */
import { config } from "zod/v4";

/** Sets zod's `jitless` (unless something set it already); the function returned puts it back, once. */
export const jitlessUntilFirstAnswer = (): (() => void) => {
  const settings = config();
  if (settings.jitless !== undefined) return () => undefined;
  settings.jitless = true;
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    delete settings.jitless;
  };
};
