/**
 * Which of the AI SDK's providers speaks chat-completions to a server: `model.provider`, or by default
 * the base URL's host. In a file of its own, so what imports it gets no AI SDK types.
 */

/** The providers a chat-completions server can be spoken to with; `auto` picks by the base URL's host. */
export const CHAT_PROVIDERS = ["auto", "openai", "moonshotai", "openai-compatible"] as const;
export type ChatProvider = (typeof CHAT_PROVIDERS)[number];

/** Moonshot's own API hosts (international and China), served by `@ai-sdk/moonshotai`. */
const MOONSHOT_HOSTS = new Set(["api.moonshot.ai", "api.moonshot.cn"]);

const hostOf = (baseURL: string): string | undefined => {
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/** The provider for `baseURL`: the one named, or OpenAI's on api.openai.com, Moonshot's on its hosts, the compatible one elsewhere. */
export const chatProviderFor = (baseURL: string, provider: ChatProvider = "auto"): Exclude<ChatProvider, "auto"> => {
  if (provider !== "auto") return provider;
  const host = hostOf(baseURL);
  if (host === "api.openai.com") return "openai";
  return host !== undefined && MOONSHOT_HOSTS.has(host) ? "moonshotai" : "openai-compatible";
};
