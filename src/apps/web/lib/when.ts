// One way of showing a moment, on every page: the same version, session or draft reads the same time
// wherever it is listed (the browser's locale and time zone, to the minute).

const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A stored time (milliseconds since the epoch) as the pages show it. */
export function formatWhen(ms: number): string {
  return Number.isFinite(ms) ? FORMAT.format(new Date(ms)) : '';
}

/** The machine-readable form for `<time dateTime>`. */
export function isoWhen(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}
