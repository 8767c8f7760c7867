// Author mode's rule event by hand (SessionService.runAuthorEvent, service.ts): the checks on the event's
// name, the event run on a turn's state into its record, and what a refused append means to the caller.

import type { Cartridge } from '../../core/cartridge/index.ts';
import type { AppendTurnResult, JsonValue } from '../../adapters/store/index.ts';
import { runEvent } from '../../core/yare/index.ts';
import { plainJson } from './canonical.ts';
import { notFound, SessionError } from './errors.ts';
import { MAX_EVENT_NAME_CHARS } from './limits.ts';
import type { AuthorEventRecord } from './records.ts';

/** An event name of 1 to MAX_EVENT_NAME_CHARS characters; else an `invalid` error. */
export function checkEventName(event: string): void {
  if (event.length === 0 || event.length > MAX_EVENT_NAME_CHARS) {
    throw new SessionError(
      'invalid',
      `event name must be 1 to ${MAX_EVENT_NAME_CHARS} characters (MAX_EVENT_NAME_CHARS)`,
    );
  }
}

/** An event the cartridge has; else an `invalid` error listing those it has. */
export function checkKnownEvent(cartridge: Cartridge, event: string): void {
  if (!cartridge.rules.events.has(event)) {
    throw new SessionError('invalid', `the cartridge has no event '${event}'`, {
      known: cartridge.rules.eventNames,
    });
  }
}

/** The (known) event run on `state`; a refused run is an `invalid` error. */
export function authorEventRecord(
  cartridge: Cartridge,
  state: JsonValue,
  request: { readonly event: string; readonly inputs?: unknown },
  seed: number,
): AuthorEventRecord {
  const result = runEvent(cartridge.rules, state, request.event, request.inputs ?? {}, { seed });
  if (!result.ok) {
    throw new SessionError(
      'invalid',
      `event '${request.event}' failed (${result.error.code}): ${result.error.message}`,
      { code: result.error.code },
    );
  }
  return {
    kind: 'author-event',
    version: 1,
    event: request.event,
    inputs: plainJson(request.inputs ?? {}),
    seed,
    notes: [...result.notes],
    rolls: plainJson(result.rolls),
    stateAfter: plainJson(result.state),
  };
}

/** The error a refused append is to the caller. */
export function appendRefusal(
  refused: Exclude<AppendTurnResult, { ok: true }>,
  sessionId: string,
  parentId: string,
): SessionError {
  if (refused.reason === 'conflict') {
    return new SessionError('conflict', 'the session head moved meanwhile', {
      headTurnId: refused.headTurnId,
    });
  }
  return notFound(refused.reason === 'session-not-found' ? `session ${sessionId}` : `turn ${parentId}`);
}
