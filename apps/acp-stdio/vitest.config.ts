import { defineConfig } from "vitest/config";
import { projectConfig } from "../../vitest.source.js";

export default defineConfig(projectConfig({ test: { name: "acp-stdio", testTimeout: 20_000, globalSetup: ["./test/build-first.ts"] } }));
