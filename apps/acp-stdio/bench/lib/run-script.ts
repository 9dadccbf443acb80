/** Runs a bench script's `main`; a failure is one line on stderr, prefixed with the script's name, and exit code 1. */
export const runScript = (name: string, main: () => Promise<void>): void => {
  main().catch((error: unknown) => {
    process.stderr.write(`${name}: ${String(error)}\n`);
    process.exit(1);
  });
};
