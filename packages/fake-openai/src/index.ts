/** A scripted OpenAI-compatible HTTP server for end-to-end tests and benchmarks. */
export { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from "./server.js";
export {
  dropAfter,
  floodText,
  frames,
  openAIErrorBody,
  slowText,
  stall,
  status,
  text,
  thinking,
  toolCalls,
  type DropAfterReply,
  type FakeToolCall,
  type FakeUsage,
  type FloodReply,
  type FramesReply,
  type RecordedRequest,
  type Reply,
  type ScriptedReply,
  type StallReply,
  type StatusReply,
  type TextReply,
  type ToolCallsReply,
} from "./replies.js";
export { fakeServerKeeper, tcpGreeter } from "./test-servers.js";
export { startConnectProxy, type ConnectProxy } from "./connect-proxy.js";
export { CORPUS, ERROR_BODIES, type CorpusEntry, type ErrorBodyEntry } from "./corpus/index.js";
export { startEndlessServer, type EndlessKind, type EndlessOptions, type EndlessRequest, type EndlessServer } from "./endless-server.js";
