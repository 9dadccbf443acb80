/** Whether a base URL is OpenAI's own API: in a file of its own, so what imports it gets no AI SDK types. */

/** Whether `baseURL` is OpenAI's own API. */
export const isOpenAIHost = (baseURL: string): boolean => {
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
};
