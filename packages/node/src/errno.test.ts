import { describe, expect, it } from "vitest";
import { errorCode, reasonOf } from "./errno.js";

describe("reasonOf", () => {
  it("says what a system error's code means, beside the code; an error without one by its message", () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    expect(errorCode(enospc)).toBe("ENOSPC");
    expect(reasonOf(enospc)).toBe("no space left on device (ENOSPC)");
    expect(reasonOf(Object.assign(new Error("x"), { code: "EPERM" }))).toBe("operation not permitted (EPERM)");
    expect(reasonOf(Object.assign(new Error("x"), { code: "ERR_SOMETHING_ELSE" }))).toBe("ERR_SOMETHING_ELSE");
    expect(reasonOf(new Error("it broke"))).toBe("it broke");
    expect(reasonOf("a string")).toBe("a string");
  });
});
