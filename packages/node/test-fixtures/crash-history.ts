/** The history the crash-safety child writes as its `k`th save in round `round`: its shape tells a whole file from a torn one. */
import { assistantMessage, systemMessage, userMessage, type History, type Message } from "@mm/core";

export const crashHistory = (round: number, k: number): History => {
  const count = 300 + (k % 5) * 60;
  const rest: Message[] = [];
  for (let i = 0; i < count; i++) {
    const body = `${round}:${k}:${i} ${"x".repeat(4000 + ((k + i) % 97))}`;
    rest.push(i % 2 === 0 ? userMessage(body) : assistantMessage(body, [{ id: `call_${i}`, name: "bash", input: { command: body.slice(0, 20) } }]));
  }
  return [systemMessage(`crash ${round} ${k}`), ...rest];
};

/** The round and save number a crash history's system prompt names. */
export const crashVersionOf = (systemText: string): { round: number; k: number } | undefined => {
  const match = /^crash (\d+) (\d+)$/.exec(systemText);
  return match === null ? undefined : { round: Number(match[1]), k: Number(match[2]) };
};
