/**
 * A tool call's input as the model sent it: JSON parsed; blank as no arguments; anything else kept as
 * the text, which the tool's schema check then refuses with a message the model can act on.
 */
export const parseToolInput = (text: string): unknown => {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
