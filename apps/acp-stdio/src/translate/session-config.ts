/**
 * A session's settings as the "full" surface shows them: config options — the model (category
 * `model`, Zed's model picker), the permission mode (category `mode`) and, for a model that takes one,
 * the reasoning effort (category `thought_level`) — and the modes as a `SessionModeState` for clients
 * that use `session/set_mode`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from "@mm/core";

export const MODEL_OPTION_ID = "model";
export const MODE_OPTION_ID = "mode";
export const EFFORT_OPTION_ID = "effort";

/** The reasoning efforts offered (the AI SDK's `reasoningEffort`); `default` sends none. */
export const EFFORTS = ["default", "low", "medium", "high"] as const;

/** What a session's options are built from. */
export type SessionChoices = {
  /** The model its steps ask for. */
  readonly model: string;
  readonly mode: PermissionMode;
  /** The models to offer (the current one is offered whatever). */
  readonly models: readonly string[];
  /** The `sandbox` mode is offered (bubblewrap runs here). */
  readonly sandbox?: boolean;
  /** The model takes a reasoning effort: the `effort` option is offered, with this value (`default`: none asked). */
  readonly effort?: string;
};

/** The modes offered: `sandbox` only where bubblewrap runs. */
const modesOf = (sandbox: boolean | undefined) => PERMISSION_MODES.filter((m) => m.id !== "sandbox" || sandbox === true);

const modelIds = (choices: SessionChoices): readonly string[] => (choices.models.includes(choices.model) ? choices.models : [choices.model, ...choices.models]);

/** The reasoning effort option (category `thought_level`), for a model that takes one. */
const effortOption = (effort: string): acp.SessionConfigOption => ({
  id: EFFORT_OPTION_ID,
  name: "Reasoning effort",
  description: "How hard the model thinks before it answers, from the next model step on",
  category: "thought_level",
  type: "select",
  currentValue: effort,
  options: EFFORTS.map((value) => ({ value, name: value === "default" ? "Default (the server's)" : value[0]!.toUpperCase() + value.slice(1) })),
});

/** The options, with their current values: model, mode, and the reasoning effort where the model takes one. */
export const configOptionsOf = (choices: SessionChoices): acp.SessionConfigOption[] => [
  ...baseOptionsOf(choices),
  ...(choices.effort !== undefined ? [effortOption(choices.effort)] : []),
];

const baseOptionsOf = (choices: SessionChoices): acp.SessionConfigOption[] => [
  {
    id: MODEL_OPTION_ID,
    name: "Model",
    description: "The model Bob asks, from the next model step on",
    category: "model",
    type: "select",
    currentValue: choices.model,
    options: modelIds(choices).map((id) => ({ value: id, name: id })),
  },
  {
    id: MODE_OPTION_ID,
    name: "Permissions",
    description: "How much Bob asks before he acts",
    category: "mode",
    type: "select",
    currentValue: choices.mode,
    options: modesOf(choices.sandbox).map((m) => ({ value: m.id, name: m.name, description: m.description })),
  },
];

/** The modes, for clients of `session/set_mode`. */
export const modeStateOf = (mode: PermissionMode, sandbox?: boolean): acp.SessionModeState => ({
  currentModeId: mode,
  availableModes: modesOf(sandbox).map((m) => ({ id: m.id, name: m.name, description: m.description })),
});

/** Why `value` is no permission mode, naming the modes. */
export const modeRefusal = (value: unknown, sandbox?: boolean): string =>
  `unknown mode ${JSON.stringify(value)}: the modes are ${modesOf(sandbox)
    .map((m) => m.id)
    .join(", ")}`;

/** Whether `value` is a mode offered here. */
export const isOfferedMode = (value: unknown, sandbox?: boolean): value is PermissionMode =>
  isPermissionMode(value) && modesOf(sandbox).some((m) => m.id === value);

/** Whether `value` may be set for option `configId`: undefined when it may, else why not. */
export const refusalOf = (choices: SessionChoices, configId: string, value: unknown): string | undefined => {
  if (configId === MODEL_OPTION_ID) {
    return typeof value === "string" && modelIds(choices).includes(value)
      ? undefined
      : `unknown model ${JSON.stringify(value)}: the models are ${modelIds(choices).join(", ")}`;
  }
  if (configId === MODE_OPTION_ID) {
    return isOfferedMode(value, choices.sandbox) ? undefined : modeRefusal(value, choices.sandbox);
  }
  if (configId === EFFORT_OPTION_ID && choices.effort !== undefined) {
    return typeof value === "string" && (EFFORTS as readonly string[]).includes(value)
      ? undefined
      : `unknown reasoning effort ${JSON.stringify(value)}: the efforts are ${EFFORTS.join(", ")}`;
  }
  const ids = [MODEL_OPTION_ID, MODE_OPTION_ID, ...(choices.effort !== undefined ? [EFFORT_OPTION_ID] : [])];
  return `unknown config option ${JSON.stringify(configId)}: the options are ${ids.join(", ")}`;
};
