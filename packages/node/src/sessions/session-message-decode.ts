/**
 * The messages of a session document (and of its journal), each checked in the single validating pass:
 * the system prompt first, then user, assistant and tool messages, their images, diffs and reasoning.
 */
import type { FileDiff, History, ImageData, Message, ReasoningPart, ShownCall, SystemMessage, ToolCall } from "@mm/core";
import { MAX_INPUT_DEPTH, nestsDeeperThan } from "@mm/core";
import { expected, Invalid, isRecord, type Json, text, textOrNull } from "./document-validation.js";

const decodeDiff = (value: unknown, at: string): FileDiff | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const path = text(value, "path", at);
  if (path instanceof Invalid) return path;
  const oldText = textOrNull(value, "oldText", at);
  if (oldText instanceof Invalid) return oldText;
  const newText = textOrNull(value, "newText", at);
  if (newText instanceof Invalid) return newText;
  if (value.note === undefined) return { path, oldText, newText };
  const note = text(value, "note", at);
  return note instanceof Invalid ? note : { path, oldText, newText, note };
};

const decodeCall = (value: unknown, at: string): ToolCall | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const id = text(value, "id", at);
  if (id instanceof Invalid) return id;
  const name = text(value, "name", at);
  if (name instanceof Invalid) return name;
  if (nestsDeeperThan(value.input)) return new Invalid(`${at}.input: nested deeper than ${MAX_INPUT_DEPTH} levels`);
  return { id, name, input: value.input };
};

const decodeList = <T>(value: unknown, at: string, decodeItem: (item: unknown, at: string) => T | Invalid): T[] | Invalid => {
  if (!Array.isArray(value)) return expected(at, "an array", value);
  const items: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const item = decodeItem(value[i], `${at}[${i}]`);
    if (item instanceof Invalid) return item;
    items.push(item);
  }
  return items;
};

const decodeImage = (value: unknown, at: string): ImageData | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const data = text(value, "data", at);
  if (data instanceof Invalid) return data;
  const mimeType = text(value, "mimeType", at);
  return mimeType instanceof Invalid ? mimeType : { data, mimeType };
};

/** The optional `images` of a user or tool message: absent, or a list of images. */
const decodeImages = (record: Json, at: string): { images?: ImageData[] } | Invalid => {
  if (record.images === undefined) return {};
  const images = decodeList(record.images, `${at}.images`, decodeImage);
  return images instanceof Invalid ? images : { images };
};

const decodeReasoning = (value: unknown, at: string): ReasoningPart | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const body = text(value, "text", at);
  if (body instanceof Invalid) return body;
  const part: { text: string; item?: string; encrypted?: string } = { text: body };
  for (const key of ["item", "encrypted"] as const) {
    if (value[key] === undefined) continue;
    const field = text(value, key, at);
    if (field instanceof Invalid) return field;
    part[key] = field;
  }
  return part;
};

const decodeAssistant = (record: Json, at: string): Message | Invalid => {
  const body = text(record, "text", at);
  if (body instanceof Invalid) return body;
  const toolCalls = decodeList(record.toolCalls, `${at}.toolCalls`, decodeCall);
  if (toolCalls instanceof Invalid) return toolCalls;
  if (record.reasoning === undefined) return { role: "assistant", text: body, toolCalls };
  const reasoning = decodeList(record.reasoning, `${at}.reasoning`, decodeReasoning);
  return reasoning instanceof Invalid ? reasoning : { role: "assistant", text: body, toolCalls, reasoning };
};

/** A result's record of how its call was shown; only a display hint, so one that does not check is dropped. */
const decodeShown = (value: unknown): { readonly shown?: ShownCall } => {
  if (!isRecord(value) || typeof value.title !== "string" || typeof value.kind !== "string") return {};
  // Files an editor may open: absolute paths only, whatever a session file from a cloned repository says.
  const locations =
    Array.isArray(value.locations) && value.locations.every((l) => typeof l === "string" && l.startsWith("/") && !l.includes("\0"))
      ? { locations: value.locations as string[] }
      : {};
  return { shown: { title: value.title, kind: value.kind, ...locations } };
};

const decodeToolResult = (record: Json, at: string): Message | Invalid => {
  const callId = text(record, "callId", at);
  if (callId instanceof Invalid) return callId;
  const toolName = text(record, "toolName", at);
  if (toolName instanceof Invalid) return toolName;
  const status = record.status;
  if (status !== "completed" && status !== "failed") return expected(`${at}.status`, "completed/failed", status);
  const output = text(record, "output", at);
  if (output instanceof Invalid) return output;
  const images = decodeImages(record, at);
  if (images instanceof Invalid) return images;
  const shown = decodeShown(record.shown);
  if (record.diffs === undefined) return { role: "tool", callId, toolName, status, output, ...images, ...shown };
  const diffs = decodeList(record.diffs, `${at}.diffs`, decodeDiff);
  return diffs instanceof Invalid ? diffs : { role: "tool", callId, toolName, status, output, diffs, ...images, ...shown };
};

/** One message of the history after the system prompt, checked; `at` names it in the error. */
export const decodeMessage = (value: unknown, at: string): Message | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  switch (value.role) {
    case "user": {
      const body = text(value, "text", at);
      if (body instanceof Invalid) return body;
      const images = decodeImages(value, at);
      if (images instanceof Invalid) return images;
      if (value.summary === undefined) return { role: "user", text: body, ...images };
      return value.summary === true ? { role: "user", text: body, summary: true } : expected(`${at}.summary`, "true", value.summary);
    }
    case "assistant":
      return decodeAssistant(value, at);
    case "tool":
      return decodeToolResult(value, at);
    default:
      return expected(`${at}.role`, "user/assistant/tool", value.role);
  }
};

/** The system prompt, checked; `at` names it in the error. */
export const decodeSystem = (value: unknown, at = "messages[0]"): SystemMessage | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  if (value.role !== "system") return expected(`${at}.role`, "system (the system prompt comes first)", value.role);
  const body = text(value, "text", at);
  return body instanceof Invalid ? body : { role: "system", text: body };
};

/** The document's `messages`: the system prompt, then the rest, each checked. */
export const decodeHistory = (value: unknown): History | Invalid => {
  if (!Array.isArray(value)) return expected("messages", "an array", value);
  if (value.length === 0) return new Invalid("messages: expected at least the system prompt, got an empty array");
  const system = decodeSystem(value[0]);
  if (system instanceof Invalid) return system;
  const history: [SystemMessage, ...Message[]] = [system];
  for (let i = 1; i < value.length; i++) {
    const message = decodeMessage(value[i], `messages[${i}]`);
    if (message instanceof Invalid) return message;
    history.push(message);
  }
  return history;
};
