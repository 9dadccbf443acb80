/** Runs the embedding example and prints what happened. */
import { runExample } from "./run-example.js";

const run = await runExample();
process.stdout.write(
  `${run.transcript}\n\ngreeting.txt now holds: ${JSON.stringify(run.file)}\nstop reason: ${run.stopReason}${run.failure !== undefined ? ` (${run.failure})` : ""}\n`,
);
