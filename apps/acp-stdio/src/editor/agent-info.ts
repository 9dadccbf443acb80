/** Who the agent says it is. */
export const AGENT_INFO = { name: "bob", title: "Bob (bash-first agent)", version: "0.11.0" } as const;
