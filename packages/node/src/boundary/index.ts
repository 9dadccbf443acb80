/**
 * The host's one boundary: every helper of mm that reads, on the host, what a project, a command or
 * a model can write (AGENTS.md, skills' files, anything put before the model later) reads it here. A
 * regular file inside the directory it belongs to, never through a link leaving it, never a hidden
 * path, size-capped, opened without blocking. See docs/decisions.md, "One boundary".
 */
export { confinedReadText, staysInside, DEFAULT_CONFINED_READ_BYTES, HIDDEN_PATH, OUTSIDE_ROOT, type ConfinedRead } from "./confined-read.js";
export { boundaryContextFiles, hiddenFor, type ReadBoundary } from "./boundary-context-files.js";
export { hiddenPathsFor } from "../sandbox/sandbox-settings.js";
export {
  envSecrets,
  headerSecrets,
  MIN_SECRET_LENGTH,
  REDACTED,
  redactWith,
  secretSet,
  sessionRedactor,
  urlSecrets,
  type Secrets,
} from "./secrets.js";
