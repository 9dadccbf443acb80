/** How mm opens a file it reads from a place others can write: never through a link at the path, never blocking on a FIFO. */
import { constants } from "node:fs";

export const SAFE_READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
