/**
 * What a model step cost, in US dollars: what the server reported with its usage (OpenRouter's
 * `usage.cost`) when it did, else the tokens at the user's prices (per million input, cached input
 * and output tokens), for the model those prices are for; undefined when neither says.
 */
import type { Usage } from "../ports/model.js";

/** The user's prices, in US dollars per million tokens; `model`: the one model they are for (any when absent). */
export type Pricing = {
  readonly input: number;
  /** Input tokens the server read from its cache; `input` when absent. */
  readonly cachedInput?: number | undefined;
  readonly output: number;
  readonly model?: string | undefined;
};

const PER_TOKEN = 1 / 1_000_000;

/** The step's cost (see the module comment); `model` is the session's (undefined: the configured one). */
export const stepCost = (usage: Usage | undefined, pricing: Pricing | undefined, model: string | undefined): number | undefined => {
  if (usage === undefined) return undefined;
  if (usage.cost !== undefined && Number.isFinite(usage.cost) && usage.cost >= 0) return usage.cost;
  if (pricing === undefined || (model !== undefined && pricing.model !== undefined && model !== pricing.model)) return undefined;
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, inputTokens ?? 0);
  const fresh = (inputTokens ?? 0) - cached;
  return (fresh * pricing.input + cached * (pricing.cachedInput ?? pricing.input) + (outputTokens ?? 0) * pricing.output) * PER_TOKEN;
};
