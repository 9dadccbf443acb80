/** A prompt as the core sees it: the front end maps its protocol's content blocks to these. */

export type PromptBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "resource_link"; readonly uri: string }
  | { readonly type: "other" };
