// An esbuild plugin for the start-up bundle: the SDK checks `initialize` params with
// src/wire/initialize-params.ts's `initializeParams` (a check without zod for the shapes editors
// send, the SDK's own zod schema for anything else) instead of its zod schema alone. `initialize` is
// the first message of every process; zod builds its schema and per-shape internals on that first
// parse (see initialize-params.ts for the measurements, and its test for the proof that both give the
// same objects).
//
// It rewrites one line of @agentclientprotocol/sdk's dist/v1/stable/acp.js, the table of request
// params (`agentRequestSpecs`); the build fails if that line is not found exactly once: an SDK whose
// layout changed must be looked at, not skipped.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FILE = /@agentclientprotocol[\\/]sdk[\\/]dist[\\/]v1[\\/]stable[\\/]acp\.js$/;
const LINE = "initialize: requestSpec(schema.AGENT_METHODS.initialize, validate.zInitializeRequest),";
const PARSER = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "wire", "initialize-params.ts");

/** `source` with the `initialize` entry of the request table parsed by `initializeParams`. */
export const withFastInitialize = (source, path) => {
  const count = source.split(LINE).length - 1;
  if (count !== 1) throw new Error(`fast-initialize: ${path}: the initialize request spec was found ${count} times, not once`);
  const replaced = source.replace(LINE, "initialize: requestSpec(schema.AGENT_METHODS.initialize, __mmInitializeParams(validate.zInitializeRequest)),");
  return `import { initializeParams as __mmInitializeParams } from ${JSON.stringify(PARSER)};\n${replaced}`;
};

export const fastInitialize = {
  name: "fast-initialize",
  setup(build) {
    build.onLoad({ filter: FILE }, async (args) => ({ contents: withFastInitialize(await readFile(args.path, "utf8"), args.path), loader: "js" }));
  },
};
