/**
 * Whether bubblewrap can run here, probed once per test file: the reason it cannot (for
 * `skipIf`), or undefined when it can. `home` is any directory of the test's own.
 */
import { bwrapSandbox } from "@mm/node";

export const bwrapSkipReason = async (home: string): Promise<string | undefined> => {
  const probe = bwrapSandbox({ home, writable: [], network: false, hidden: [] });
  const probed = await probe.ready;
  probe.dispose();
  return probed.isErr() ? `bubblewrap cannot run here: ${probed.error.reason}` : undefined;
};
