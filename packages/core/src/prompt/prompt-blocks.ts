/** A prompt as the core sees it: the front end maps its protocol's content blocks to these. */

/** A content block of a prompt, as the core sees it. */
export type PromptBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "resource_link"; readonly uri: string }
  /** An image (base64 `data`); it reaches the model only when the agent's model reads images. */
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "other" };
