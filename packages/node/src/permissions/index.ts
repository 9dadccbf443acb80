export { rememberedRulesFile, type RememberedRules } from "./remembered-rules-file.js";
