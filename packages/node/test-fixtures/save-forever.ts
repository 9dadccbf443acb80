/**
 * Child process of the crash-safety test: saves ever-changing large histories of one session, printing
 * `saved k` after each, until it is killed. Usage: save-forever.ts <cwd> <id> <round>.
 */
import { jsonSessionStore } from "../src/sessions/json-session-store.js";
import { crashHistory } from "./crash-history.js";

const [cwd = "", id = "", round = "0"] = process.argv.slice(2);
const store = jsonSessionStore({ dir: ".mm/sessions" });

for (let k = 0; ; k++) {
  const saved = await store.save({ id, cwd, createdAt: 0, updatedAt: k, history: crashHistory(Number(round), k) });
  if (saved.isErr()) {
    process.stderr.write(`save failed: ${JSON.stringify(saved.error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`saved ${k}\n`);
}
