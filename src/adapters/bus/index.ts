// Public surface of the table bus (types.ts says what it is for).
export { Listeners, LocalBus } from './local.ts';
export type { BusListener, BusMessage, PassingPayload, TableBus } from './types.ts';
