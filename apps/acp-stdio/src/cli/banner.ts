/** The start-up banner on stderr: name, version, model and endpoint (never the key), skills. */
import { shadowedSkills, type SkillSummary } from "@mm/core";
import { redactedSummary, type MmConfig } from "../config/index.js";
import { AGENT_INFO } from "../editor/agent-info.js";

/** `proxy`: the proxy the model's requests go through (`http://host:port`), when one is set for its host. */
export const bannerLines = (config: MmConfig, skills: readonly SkillSummary[], source: string | null, proxy?: string): readonly string[] => {
  // `/undo` is a command of the full surface only (see serve.ts).
  const shadowed = shadowedSkills(skills, { undo: config.acp.surface === "full" });
  // An absolute sessions dir is one place for every session; a relative one is under each session's cwd.
  const dir = config.sessions.dir;
  const where = dir.startsWith("/") ? dir : `<cwd>/${dir}`;
  return [
    `mm-acp ${AGENT_INFO.version} — ${AGENT_INFO.title}, serving ACP on stdio`,
    `mm-acp: ${redactedSummary(config)}${config.model.apiKey === undefined ? `, no API key set (${config.model.apiKeyEnv} is not set)` : ""}; config: ${source ?? "none (defaults)"}`,
    `mm-acp: ${skills.length} skill(s)${config.sessions.enabled ? `; sessions kept in ${where}` : ""}${config.acp.surface === "full" ? "; ACP surface: full" : ""}`,
    ...(proxy !== undefined ? [`mm-acp: model requests go through the proxy ${proxy} (HTTPS_PROXY / HTTP_PROXY; NO_PROXY and loopback go direct)`] : []),
    ...shadowed.map((name) => `mm-acp: skill "${name}" is not advertised: the /${name} command shadows it`),
  ];
};
