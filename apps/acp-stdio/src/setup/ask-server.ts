/**
 * What `mm-acp --setup` asks the model server: `GET {baseURL}/models`, with the key when one is set,
 * within a short timeout, following redirects within its origin only, the answer bounded (16 MiB).
 * The answer is a value (never thrown): the models it lists, a refused key, or why there was no
 * usable answer, in words fit for the setup's transcript.
 */
import { explainError, modelFetch } from "@mm/ai-model";
import { answerTooLargeIn } from "@mm/core";

/** What the server said. */
export type ServerAnswer =
  | { readonly kind: "models"; readonly ids: readonly string[] }
  | { readonly kind: "refused"; readonly status: number }
  | { readonly kind: "failed"; readonly reason: string };

export type AskServerOptions = {
  readonly baseURL: string;
  readonly apiKey?: string | undefined;
  /** 5 s by default. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
};

/** How long the setup waits for the server. */
export const SETUP_TIMEOUT_MS = 5_000;

/** The URL asked: `{baseURL}/models`. */
export const modelsURL = (baseURL: string): string => `${baseURL.replace(/\/+$/, "")}/models`;

const idsOf = (body: unknown): readonly string[] | undefined => {
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return undefined;
  const ids = data.flatMap((m: unknown) =>
    typeof m === "object" && m !== null && typeof (m as { id?: unknown }).id === "string" ? [(m as { id: string }).id] : [],
  );
  return [...new Set(ids)].sort();
};

/** Asks the server for its models; never throws. */
export const askServer = async (options: AskServerOptions): Promise<ServerAnswer> => {
  const timeoutMs = options.timeoutMs ?? SETUP_TIMEOUT_MS;
  try {
    // As a step's requests go: redirects within the server's origin only, the answer bounded (a flood stops at 16 MiB).
    const response = await modelFetch(options.fetch ?? fetch, { whole: true })(modelsURL(options.baseURL), {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 401 || response.status === 403) return { kind: "refused", status: response.status };
    if (!response.ok) return { kind: "failed", reason: `it answered ${response.status} to GET ${modelsURL(options.baseURL)}` };
    const ids = idsOf(
      await response.json().catch((error: unknown) => {
        if (answerTooLargeIn(error) !== undefined) throw error;
        return undefined;
      }),
    );
    return ids === undefined ? { kind: "failed", reason: "its answer holds no model list" } : { kind: "models", ids };
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") return { kind: "failed", reason: `no answer within ${timeoutMs / 1000} s` };
    return { kind: "failed", reason: explainError(error, { baseURL: options.baseURL, apiKey: options.apiKey }).message };
  }
};

/** How many of the server's models the setup lists by number. */
export const LISTED = 30;

/** The transcript's lines about the answer; `apiKeyEnv` the variable the key came from, `keySet` whether it was set. */
export const answerLines = (answer: ServerAnswer, apiKeyEnv: string, keySet: boolean): readonly string[] => {
  switch (answer.kind) {
    case "models": {
      const listed = answer.ids.slice(0, LISTED).map((id, index) => `  ${index + 1}) ${id}`);
      const more = answer.ids.length > LISTED ? [`  … and ${answer.ids.length - LISTED} more (type a name)`] : [];
      const how = keySet ? `with the key in $${apiKeyEnv}` : "without a key";
      return answer.ids.length === 0
        ? [`mm-acp: the server answered (${how}) but lists no models: type the model's name`]
        : [`mm-acp: the server answered (${how}): ${answer.ids.length} model(s)`, ...listed, ...more];
    }
    case "refused":
      return [
        keySet
          ? `mm-acp: the server refused the key in $${apiKeyEnv} (${answer.status}): check that variable's value; the model's name cannot be checked`
          : `mm-acp: the server wants a key (${answer.status}) and $${apiKeyEnv} is not set in this shell: set it (where your editor starts mm-acp too)`,
      ];
    case "failed":
      return [`mm-acp: the server did not answer: ${answer.reason}; the model's name cannot be checked`];
  }
};
