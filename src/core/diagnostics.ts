// Shared error vocabulary of the pure core: every problem an author can cause carries a stable code and,
// where it comes from a file, the place (`file:line:col`).

export interface SourcePlace {
  readonly file: string;
  readonly line: number; // 1-based
  readonly col: number; // 1-based
}

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly place?: SourcePlace;
}

export function formatPlace(place: SourcePlace | undefined): string {
  return place ? `${place.file}:${place.line}:${place.col}` : '<unknown>';
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${formatPlace(d.place)}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message} [${d.code}]`;
}

/** Diagnostics in file, line, column order (code-unit order of file names: the same on every machine). */
export function sortByPlace(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareText(a.place?.file ?? '', b.place?.file ?? '') ||
      (a.place?.line ?? 0) - (b.place?.line ?? 0) ||
      (a.place?.col ?? 0) - (b.place?.col ?? 0),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
