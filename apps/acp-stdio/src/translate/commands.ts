/** The core's available commands → the ACP `available_commands_update`. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AvailableCommand } from "@mm/core";

export const commandsUpdate = (commands: readonly AvailableCommand[]): acp.SessionUpdate => ({
  sessionUpdate: "available_commands_update",
  availableCommands: commands.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.hint !== undefined ? { input: { hint: c.hint } } : {}),
  })),
});
