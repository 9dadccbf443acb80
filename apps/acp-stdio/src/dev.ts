/**
 * mm-acp straight from the TypeScript sources, for development (no build), started as the built bin
 * starts it: the start-up front, then the agent.
 * `corepack pnpm exec tsx --conditions=mm-source apps/acp-stdio/src/dev.ts` (or `corepack pnpm dev`).
 */
import { start } from "./front.js";
import * as agent from "./main.js";

start(() => agent);
