/** Image files a vision model can be shown: recognised by extension, encoded as base64 without Node. */

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** The media type of an image path (by extension), or undefined. */
export const imageTypeOf = (path: string): string | undefined => IMAGE_TYPES[path.slice(path.lastIndexOf(".") + 1).toLowerCase()];

/** Base64 of `bytes`, in chunks (no call-stack limit on large files). */
export const base64Of = (bytes: Uint8Array): string => {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
};
