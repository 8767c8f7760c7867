// Public surface of the table bus (types.ts says what it is for).
export { Listeners, LocalBus } from './local.ts';
export { MAX_NOTIFY_BYTES, openBus, PgNotifyBus, TABLE_CHANNEL } from './pg-notify.ts';
export type { BusListener, BusMessage, BusTableEvent, PassingPayload, TableBus } from './types.ts';
