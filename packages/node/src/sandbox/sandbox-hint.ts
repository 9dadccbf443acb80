/**
 * sandboxHints: what to tell the model when a sandboxed command's output shows the sandbox refused
 * it something — a write outside the writable places, the network, a hidden path — so it changes
 * course instead of retrying the same thing. Pure: it reads the output the command printed, whatever
 * its exit code (`curl … | head` exits 0).
 */

/** What the hint needs to know of the sandbox the command ran in. */
export type HintFacts = {
  readonly network: boolean;
  /** The hidden paths, absolute. */
  readonly hidden: readonly string[];
  /** The command's cwd and the home, to recognise a hidden path written relative to them. */
  readonly cwd: string;
  readonly home: string;
};

const READ_ONLY = /Read-only file system|\bEROFS\b/;
/** A rename or removal of `.mm`, a mount point under the sandbox: `mv: cannot move '.mm' to '.mm-x': Device or resource busy`. */
const MM_BUSY = /\.mm\b[^\n]*(Device or resource busy|\bEBUSY\b)/;
const NO_NETWORK =
  /Network is unreachable|\bENETUNREACH\b|Connection refused|\bECONNREFUSED\b|Could not resolve host|Temporary failure in name resolution|Name or service not known|\bEAI_AGAIN\b|\bENOTFOUND\b|No address associated with hostname|Could not connect to server/;
const DENIED = /Permission denied|\bEACCES\b|Operation not permitted|\bEPERM\b/;

export const READ_ONLY_HINT =
  "[sandbox: this command runs sandboxed (tools.sandbox \"workspace\"): only the session's directory, /tmp and the directories of tools.writable are writable, the rest is read-only, and so is .mm (mm's own sessions, config and skills: it cannot be written, renamed or removed). Write inside the project, or ask the user to add the directory to tools.writable.]";
export const NO_NETWORK_HINT =
  "[sandbox: this command runs sandboxed without network (tools.network is false): no host can be reached, not even a server on 127.0.0.1 outside the sandbox. Do not retry; ask the user to set tools.network to true if the task needs the network.]";
export const hiddenHint = (path: string): string =>
  `[sandbox: ${path} is hidden from sandboxed commands (secrets, tools.hidden); it cannot be read or listed. Do not try another way.]`;

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The ways a message may write `path`: absolute, relative to the cwd, or under `~`. */
const spellings = (path: string, facts: HintFacts): readonly string[] => {
  const under = (root: string): string | undefined => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined);
  const relative = under(facts.cwd);
  const tilde = under(facts.home);
  return [path, ...(relative !== undefined ? [relative, `./${relative}`] : []), ...(tilde !== undefined ? [`~/${tilde}`] : [])];
};

/** Whether `output` names `path` (or something inside it) as a whole path, not as part of a longer name. */
const names = (output: string, path: string, facts: HintFacts): boolean =>
  spellings(path, facts).some((spelling) => new RegExp(`(^|[\\s'"\`:(=])${escaped(spelling)}(?=$|[\\s'"\`:/)])`, "m").test(output));

/** The hint lines for a sandboxed command's output; empty when nothing in it points at the sandbox. */
export const sandboxHints = (output: string, facts: HintFacts): readonly string[] => {
  const hints: string[] = [];
  if (READ_ONLY.test(output) || MM_BUSY.test(output)) hints.push(READ_ONLY_HINT);
  if (!facts.network && NO_NETWORK.test(output)) hints.push(NO_NETWORK_HINT);
  if (DENIED.test(output)) hints.push(...facts.hidden.filter((path) => names(output, path, facts)).map(hiddenHint));
  return hints;
};

/** `output` with the hints on their own lines after it (unchanged when there are none). */
export const withSandboxHints = (output: string, facts: HintFacts): string => {
  const hints = sandboxHints(output, facts);
  if (hints.length === 0) return output;
  const separator = output === "" || output.endsWith("\n") ? "" : "\n";
  return `${output}${separator}${hints.join("\n")}\n`;
};
