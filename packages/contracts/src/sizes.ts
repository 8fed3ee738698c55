/**
 * Sizes count in decimal units, as the systems people use show them (macOS, iOS, Android and
 * most file managers): 1 KB = 1000 bytes, 1 MB = 1000 KB, 1 GB = 1000 MB. Every limit, size
 * field and label uses these, so a "100 MB" limit takes the file the user's system calls 100 MB.
 */
export const KB = 1000;
export const MB = 1000 * KB;
export const GB = 1000 * MB;

/** A limit as people read it: "100 MB", "5 GB", "2.5 GB". */
export const sizeLabel = (bytes: number) =>
  bytes >= GB ? `${Math.round((bytes / GB) * 10) / 10} GB` : `${Math.round(bytes / MB)} MB`;
