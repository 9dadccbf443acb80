/**
 * The sandbox's room on the host, made once per agent process: a private directory every command
 * sees as /tmp (kept between commands, so one can leave a file for the next), and the mode-000
 * stand-ins bound over hidden paths. Removed when the agent exits.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";

export type SandboxRoom = {
  readonly dir: string;
  /** Mounted as /tmp in every command. */
  readonly privateTmp: string;
  /** Empty and unreadable: bound over hidden directories and files. */
  readonly masks: { readonly dir: string; readonly file: string };
  /** Deletes the room and what commands left in its /tmp; synchronous, for an `exit` handler. Never throws. */
  readonly remove: () => void;
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Makes the room under `parent` (the system temp dir by default); the error says why it could not. */
export const createSandboxRoom = (parent: string = tmpdir()): Result<SandboxRoom, string> => {
  try {
    const dir = mkdtempSync(join(parent, "mm-sandbox-"));
    const privateTmp = join(dir, "tmp");
    mkdirSync(privateTmp);
    chmodSync(privateTmp, 0o1777);
    const masks = { dir: join(dir, "mask-dir"), file: join(dir, "mask-file") };
    mkdirSync(masks.dir);
    writeFileSync(masks.file, "");
    chmodSync(masks.dir, 0o000);
    chmodSync(masks.file, 0o000);
    const remove = (): void => {
      try {
        chmodSync(masks.dir, 0o700);
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // Left for the system's temp cleaning: nothing secret is in it.
      }
    };
    return ok({ dir, privateTmp, masks, remove });
  } catch (error) {
    return err(messageOf(error));
  }
};
