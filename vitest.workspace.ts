import { defineConfig } from "vitest/config";

export default defineConfig({ test: { projects: ["packages/*", "apps/*"], globalSetup: ["./vitest.temp-dir.ts"] } });
