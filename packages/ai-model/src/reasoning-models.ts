/** Model ids OpenAI reasons with (o-series, gpt-5 and later but their chat variants): asked for reasoning summaries on the Responses API. */
export const isReasoningModelId = (id: string): boolean => /^(o\d|gpt-([5-9]|\d{2}))/.test(id) && !/^gpt-\d+(\.\d+)?-chat/.test(id);
