/** What one corpus entry is: a server's stream in its own wire shape, and what the user must meet. */

export type CorpusEntry = {
  /** The server (or service) whose documented shape this is. */
  readonly server: string;
  /** What of its shape the entry shows. */
  readonly shape: string;
  readonly api: "chat" | "responses";
  /** The model name the request carries (some shapes depend on it). */
  readonly model?: string;
  /** The server has a provider of its own in the AI SDK (`model.provider`): the entry is also played through it. */
  readonly provider?: "moonshotai";
  /** The wire text of the answer, frame by frame; then the response ends (`drop`: the socket is cut). */
  readonly frames: readonly string[];
  readonly end?: "close" | "drop";
  readonly expect: {
    /** Every `agent_message_chunk` of the turn joined (a call's entry includes the fake's closing "ok"). */
    readonly text: string;
    /** Every `agent_thought_chunk` joined. */
    readonly thought?: string;
    /** The `bash` command the turn runs (its output goes back to the model); none runs when absent. */
    readonly command?: string;
    /** The `bash` commands of a step with several calls, in order (instead of `command`). */
    readonly commands?: readonly string[];
    /** The tokens the first `usage_update` reports (the server's usage, not mm's estimate). */
    readonly used?: number;
    /** The stop reason on the spec surface. */
    readonly stop?: "end_turn" | "max_tokens" | "refusal";
    /** The stop reason on the full surface, when it differs. */
    readonly fullStop?: "end_turn" | "max_tokens" | "refusal";
    /** The turn fails with an `internal error` whose text contains this. */
    readonly error?: string;
  };
};
