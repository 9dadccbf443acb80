/**
 * Where a provider step goes (the Responses API, or an embedder's own `fetch`; the chat API on our own
 * HTTP client goes through chat-step.ts instead): the provider's models (`@ai-sdk/openai`, imported on
 * the first step) on a fetch, and the prompt the provider is given, converted whole
 * (to-provider-prompt.ts).
 */
import type { ModelRequest } from "@mm/core";
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { fetchOn, type HttpSender } from "./node-http-fetch.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

type ProviderModel = LanguageModelV3;
type ModelsOf = (id: string) => Promise<ProviderModel>;

/** The provider's models a step goes to. */
export type Route = { readonly modelsOf: ModelsOf };

/** The server a route talks to, and how: a `fetch`, or our HTTP client's sender. */
export type RouteSettings = { readonly apiKey: string; readonly baseURL?: string | undefined } & ({ readonly fetch: typeof fetch } | { readonly send: HttpSender });

/** Routes for one API (and the extra headers of every request). */
export const providerRoutes = (options: { readonly api: "chat" | "responses"; readonly headers?: Readonly<Record<string, string>> | undefined }) => {
  /** The provider's model of each id asked for (a session may pick another than the default), on `fetch`. */
  const providerModels = (settings: { readonly apiKey: string; readonly baseURL?: string | undefined; readonly fetch: typeof fetch }): ModelsOf => {
    let created: Promise<(id: string) => ProviderModel> | undefined;
    const models = new Map<string, ProviderModel>();
    const load = async (): Promise<(id: string) => ProviderModel> => {
      const openai = await import("@ai-sdk/openai");
      const provider = openai.createOpenAI({
        apiKey: settings.apiKey,
        ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
        ...(options.headers ? { headers: { ...options.headers } } : {}),
        fetch: settings.fetch,
      });
      return (id) => {
        let model = models.get(id);
        if (model === undefined) {
          model = options.api === "chat" ? provider.chat(id) : provider.responses(id);
          models.set(id, model);
        }
        return model;
      };
    };
    return async (id) => {
      created ??= load().catch((error: unknown) => {
        created = undefined;
        throw error;
      });
      return (await created)(id);
    };
  };

  /** The route on `settings`. */
  const routeOn = (settings: RouteSettings): Route => {
    const { apiKey, baseURL } = settings;
    return { modelsOf: providerModels({ apiKey, baseURL, fetch: "fetch" in settings ? settings.fetch : fetchOn(settings.send) }) };
  };

  /** The provider's prompt of a step, converted whole. */
  const promptOf = (request: ModelRequest): LanguageModelV3Prompt =>
    toProviderPrompt(request.system, request.messages, { imagesInToolResults: options.api === "responses" });

  return { routeOn, promptOf };
};
