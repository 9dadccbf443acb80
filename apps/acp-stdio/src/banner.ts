/** The start-up banner on stderr: name, version, model and endpoint (never the key), skills. */
import { shadowedSkills, type SkillSummary } from "@mm/core";
import { redactedSummary, type MmConfig } from "@mm/node";
import { AGENT_INFO } from "./agent-info.js";

export const bannerLines = (config: MmConfig, skills: readonly SkillSummary[], source: string | null): readonly string[] => {
  const shadowed = shadowedSkills(skills);
  return [
    `mm ${AGENT_INFO.version} — ${AGENT_INFO.title}, serving ACP on stdio`,
    `mm: ${redactedSummary(config)}${config.model.apiKey === undefined ? ", no API key set" : ""}; config: ${source ?? "none (defaults)"}`,
    `mm: ${skills.length} skill(s)${config.sessions.enabled ? `; sessions kept in <cwd>/${config.sessions.dir}` : ""}${config.acp.surface === "full" ? "; ACP surface: full" : ""}`,
    ...shadowed.map((name) => `mm: skill "${name}" is not advertised: the /${name} command shadows it`),
  ];
};
