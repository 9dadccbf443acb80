/** A size in bytes as a limit is written to the user: `16 MiB`, `256 KiB`, else `1000 bytes`. */
export const sizeText = (bytes: number): string =>
  bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
