/** The size cap of a session document, and the line that says a session went past it. */

/**
 * The largest session document mm writes (ASCII, so bytes): far below what one JSON text can be in
 * Node (about 512 MiB), with room for the journal folded in. A session past it is not saved, and
 * each prompt says so (docs/session-file.md): the turn stays in memory, a /compact makes it fit again.
 */
export const MAX_SESSION_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** Why the document is not written: its `size` in bytes (undefined: past what one JSON text can be). */
export const tooLarge = (size: number | undefined): string =>
  `the session file would be ${size === undefined ? "larger than a JSON text can be" : `${Math.ceil(size / (1024 * 1024))} MB`}, over the ${MAX_SESSION_DOCUMENT_BYTES / (1024 * 1024)} MB a session file holds: its last turns are kept in memory only; /compact (or a new session) makes it fit again`;
