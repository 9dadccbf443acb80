import { describe, expect, it } from "vitest";
import { explainProbeFailure, probeBwrap, unavailableMessage } from "./probe.js";

describe("explainProbeFailure", () => {
  it("says to install bubblewrap when bwrap is not on the PATH", () => {
    const why = explainProbeFailure({ errno: "ENOENT", stderr: "" });
    expect(why.reason).toBe("bwrap (bubblewrap) is not on the PATH");
    expect(why.remedy).toContain("apt-get install bubblewrap");
  });

  it("recognises missing user namespaces in bwrap's own words", () => {
    for (const said of [
      "bwrap: setting up uid map: Permission denied",
      "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.",
      "bwrap: Creating new namespace failed: Operation not permitted",
    ]) {
      const why = explainProbeFailure({ exitCode: 1, stderr: `${said}\n` });
      expect(why.reason).toBe(`user namespaces are not available to bwrap (${said})`);
      expect(why.remedy).toContain("unprivileged_userns");
    }
  });

  it("quotes any other failure", () => {
    expect(explainProbeFailure({ exitCode: 1, stderr: "bwrap: Can't mount proc on /newroot/proc: Device busy\n" }).reason).toBe(
      "bwrap failed a trial run (bwrap: Can't mount proc on /newroot/proc: Device busy)",
    );
    expect(explainProbeFailure({ exitCode: 3, stderr: "" }).reason).toBe("bwrap failed a trial run (exit code 3)");
  });

  it("makes one line saying the command was not run, why, and what to do", () => {
    const line = unavailableMessage(explainProbeFailure({ errno: "ENOENT", stderr: "" }));
    expect(line).not.toContain("\n");
    expect(line).toMatch(/^the sandbox cannot run, so the command was not run .*bwrap \(bubblewrap\) is not on the PATH\. To fix: install bubblewrap/);
  });
});

describe("probeBwrap", () => {
  it("reports a missing program as not on the PATH", async () => {
    const result = await probeBwrap("/nonexistent/bwrap", []);
    expect(result._unsafeUnwrapErr().reason).toBe("bwrap (bubblewrap) is not on the PATH");
  });
});
