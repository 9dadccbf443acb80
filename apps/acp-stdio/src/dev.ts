/**
 * mm-acp straight from the TypeScript sources, for development (no build):
 * `corepack pnpm exec tsx --conditions=mm-source apps/acp-stdio/src/dev.ts` (or `corepack pnpm dev`).
 */
import { start } from "./main.js";

start();
