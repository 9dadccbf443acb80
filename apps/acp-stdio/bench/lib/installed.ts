/**
 * The published package as a user starts it, for the start-up figures: packed and installed by
 * test/packed-package.ts (plain npm, offline, outside the workspace), then spawned the two ways
 * editors do: the `mm-acp` that `npm install -g` linked, and `npx` of the package.
 */
import type { PackedInstall } from "../../test/packed-package.js";
import type { Command } from "./agent.js";

/** Labels of the installed agents, as the start-up rows name them. */
export const INSTALLED_LABEL = "mm-acp installed by npm -g";
export const NPX_LABEL = "npx of the package";

export const installedCommands = (installed: PackedInstall): { readonly label: string; readonly command: Command }[] => [
  { label: INSTALLED_LABEL, command: { file: installed.bin, args: [] } },
  { label: NPX_LABEL, command: { file: "npx", args: ["--offline", "--yes", `file:${installed.tarball}`] } },
];
