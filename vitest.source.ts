/**
 * The workspace's packages export their TypeScript sources under the `mm-source` condition (and built
 * JavaScript otherwise): every vitest project resolves with it, so tests need no build of the packages.
 */
import { defineConfig, mergeConfig, type UserConfig } from "vitest/config";

const conditions = ["mm-source", "module", "node", "development|production"];

/** A project's vitest config, resolving the workspace's packages to their sources. */
export const projectConfig = (config: UserConfig): UserConfig =>
  mergeConfig(defineConfig({ resolve: { conditions }, ssr: { resolve: { conditions } } }), config);
