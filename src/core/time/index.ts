// In-game time, pure: the calendar by day counts, the one ISO date-time check and the one duration
// grammar, shared by the game clock (turn/game-time.ts), the Narrator's ledger tool (ledger/tool.ts) and
// YARE's `time_delta` (yare/expr/timestamps.ts). Reads no clock and no time zone.
export { civilFromDays, daysFromCivil, daysInMonth, isLeapYear, weekdayOf } from './calendar.ts';
export { type IsoDateTime, type IsoDateTimeResult, isIsoDateTime, parseIsoDateTime } from './datetime.ts';
export { DURATION_FORMATS, MAX_DURATION_CHARS, type Parsed, parseDuration } from './duration.ts';
