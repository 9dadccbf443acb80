/**
 * How much Bob asks before he acts, per session: `ask` (the spec's behaviour: every gated tool asks,
 * unless the user chose "always allow" for it), `edits` (file reads and edits go through without
 * asking; commands and other tools still ask), `all` (nothing asks), `sandbox` (the full surface
 * where bubblewrap runs: commands run confined and the permission rules let them through unasked,
 * file tools inside the cwd too; what the rules always ask about, and other tools, still ask).
 */
/** A session's permission mode. */
export type PermissionMode = "ask" | "edits" | "all" | "sandbox";

/** The modes in the order a picker lists them, with what each allows in plain words. */
export const PERMISSION_MODES: readonly { readonly id: PermissionMode; readonly name: string; readonly description: string }[] = [
  { id: "ask", name: "Ask every time", description: "Asks before every command, file read and file edit (unless you chose “Always allow” for that tool)." },
  {
    id: "edits",
    name: "Allow file reads and edits",
    description: "Reads and edits files without asking; still asks before every command and any other tool.",
  },
  { id: "all", name: "Allow everything", description: "Runs every command and file operation without asking. Only for a project you can afford to lose." },
  {
    id: "sandbox",
    name: "Sandbox: run commands confined",
    description:
      "Runs commands in the sandbox (bubblewrap: only the project writable, secrets hidden) and file tools inside the project without asking; still asks for sudo, git push, publishing, curl | sh, writes outside the project, your ask rules and MCP tools.",
  },
];

/** True for one of the modes' ids. */
export const isPermissionMode = (value: unknown): value is PermissionMode => PERMISSION_MODES.some((mode) => mode.id === value);
