/** `usage_update`: how full the context is, and (full surface) what the session cost so far, in US dollars, when known. */
import type * as acp from "@agentclientprotocol/sdk";

export const usageUpdate = (used: number, size: number, cost: number | undefined, withCost: boolean): acp.SessionUpdate => ({
  sessionUpdate: "usage_update",
  used,
  size,
  ...(withCost && cost !== undefined ? { cost: { amount: cost, currency: "USD" } } : {}),
});
