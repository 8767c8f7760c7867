// Telling file-system failures apart, so a catch can name the errors it expects and rethrow the rest: "no
// such file" is an answer (a fallback, "not found"), a permission or I/O failure is another answer, and
// anything without an errno code is a bug that must surface as itself.

/** The errno code of a Node.js system error (`ENOENT`, `EACCES`…), or undefined for any other value. */
export function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** Codes that mean the path names nothing: missing, under a file, or too long to exist. */
const NOT_FOUND: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG']);

/** Whether a file-system error means "there is no such file". */
export function isNotFound(error: unknown): boolean {
  const code = errnoCode(error);
  return code !== undefined && NOT_FOUND.has(code);
}
