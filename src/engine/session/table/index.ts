// A shared table (service.ts): members, invitations, turn order and live events, over the session service.
export { characterKey, freeKey, MAX_CHARACTER_KEY_CHARS, shownName } from './characters.ts';
export { INVITE_CODE_CHARS, inviteCodeHash, looksLikeInviteCode, newInviteCode } from './codes.ts';
export {
  eventBody,
  eventPayload,
  type HeadMove,
  type QueuedTurn,
  type TableEventBody,
  type TableEventKind,
} from './events.ts';
export * from './limits.ts';
export {
  type InviteRequest,
  type JoinRequest,
  requireSteer,
  resolveTableLimits,
  steers,
  type TableAccess,
  type TableLimits,
} from './members.ts';
export { TableService, type TableServiceOptions, type TableState } from './service.ts';
export { QUEUE_POLL_MS } from './queue.ts';
export { MAX_NARRATION_MESSAGE_CHARS, NARRATION_FLUSH_MS } from './table-turn.ts';
export type { SubmittedAction, TablePrepared, TableTurnOptions } from './turns.ts';
