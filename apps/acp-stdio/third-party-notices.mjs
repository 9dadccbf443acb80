// The licences of the npm packages esbuild bundled into mm-acp, for dist/THIRD-PARTY-NOTICES.txt: the
// published package carries their code, so it carries their notices (MIT and Apache-2.0 both ask for
// it). Read from the build's metafiles: every input under node_modules names its package.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const packageDirOf = (input) => {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
};

const licenceTextOf = (dir) => {
  const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
  return file === undefined ? undefined : readFileSync(join(dir, file), "utf8").trim();
};

/** The notices text for the packages behind `metafiles`' inputs (paths relative to `root`). */
export const thirdPartyNotices = (metafiles, root) => {
  const dirs = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const dir = packageDirOf(input);
      if (dir !== undefined && existsSync(join(root, dir, "package.json"))) dirs.add(dir);
    }
  }
  const packages = [...dirs]
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
      return { id: `${manifest.name}@${manifest.version}`, license: manifest.license ?? "see its package", text: licenceTextOf(join(root, dir)) };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
  const sections = packages.map(({ id, license, text }) =>
    [
      `${id} (${license})`,
      text ?? `No licence file in the package; its package.json declares ${license}, whose text is given with another package above or below.`,
    ].join("\n\n"),
  );
  return `${["mm-acp bundles the following npm packages. Their licences and notices follow.", ...sections].join(`\n\n${"-".repeat(78)}\n\n`)}\n`;
};
