// Argument checks shared by every repository method. Each throws a StoreInputError naming the argument.

import { nameProblem } from '../../core/text-policy.ts';
import { StoreInputError } from './errors.ts';
import {
  MAX_BRANCH_CHARS,
  MAX_BRANCH_TURNS,
  MAX_LEDGER_PAGE_TURNS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_MESSAGE_WINDOW,
  MAX_NAME_LENGTH,
} from './limits.ts';

export function checkName(place: string, value: unknown): string {
  if (typeof value !== 'string') throw new StoreInputError(place, 'must be a string');
  if (value.trim() === '') throw new StoreInputError(place, 'must not be empty');
  if (value.length > MAX_NAME_LENGTH) {
    throw new StoreInputError(
      place,
      `is ${value.length} characters, over the limit MAX_NAME_LENGTH = ${MAX_NAME_LENGTH}`,
    );
  }
  // The same on both databases: PostgreSQL would fail on NUL and mangle a lone surrogate, SQLite keep both.
  const problem = nameProblem(value);
  if (problem !== undefined) throw new StoreInputError(place, problem);
  return value;
}

export function checkOptionalName(place: string, value: unknown): string | null {
  return value === undefined || value === null ? null : checkName(place, value);
}

export function checkIdempotencyKey(place: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new StoreInputError(place, 'must be a non-empty string');
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new StoreInputError(
      place,
      `is ${value.length} characters, over the limit MAX_IDEMPOTENCY_KEY_LENGTH = ${MAX_IDEMPOTENCY_KEY_LENGTH}`,
    );
  }
  return value;
}

/** Ids are opaque text chosen by the store (UUIDs) or by the caller; bound them so they index well. */
export function checkId(place: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new StoreInputError(place, 'must be a non-empty string');
  if (value.length > MAX_NAME_LENGTH) {
    throw new StoreInputError(
      place,
      `is ${value.length} characters, over the limit MAX_NAME_LENGTH = ${MAX_NAME_LENGTH}`,
    );
  }
  return value;
}

/** Timestamps are milliseconds since the epoch, chosen by the caller (the store keeps no clock of its own). */
export function checkTimestamp(place: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new StoreInputError(place, 'must be a non-negative integer (milliseconds since the epoch)');
  }
  return value;
}

export function checkSeed(place: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StoreInputError(place, 'must be a safe integer');
  }
  return value;
}

/** sha256 as 64 lowercase hex digits: refusing anything else keeps raw API keys out of the database. */
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function checkKeyHash(place: string, value: unknown): string {
  if (typeof value !== 'string' || !SHA256_HEX.test(value)) {
    throw new StoreInputError(place, 'must be a sha256 digest (64 lowercase hex digits); use hashApiKey()');
  }
  return value;
}

const CONTENT_HASH = /^[A-Za-z0-9:_-]{8,128}$/;

export function checkContentHash(place: string, value: unknown): string {
  if (typeof value !== 'string' || !CONTENT_HASH.test(value)) {
    throw new StoreInputError(place, 'must be 8 to 128 characters of [A-Za-z0-9:_-]');
  }
  return value;
}

function checkCount(place: string, value: unknown, max: number, limitName: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new StoreInputError(place, 'must be a positive integer');
  }
  if (value > max) throw new StoreInputError(place, `is ${value}, over the limit ${limitName} = ${max}`);
  return value;
}

export function checkMessageWindow(place: string, value: unknown): number {
  return checkCount(place, value, MAX_MESSAGE_WINDOW, 'MAX_MESSAGE_WINDOW');
}

export function checkBranchTurns(place: string, value: unknown): number {
  return checkCount(place, value, MAX_BRANCH_TURNS, 'MAX_BRANCH_TURNS');
}

export function checkLedgerPageTurns(place: string, value: unknown): number {
  return checkCount(place, value, MAX_LEDGER_PAGE_TURNS, 'MAX_LEDGER_PAGE_TURNS');
}

export function checkBranchChars(place: string, value: unknown): number {
  return checkCount(place, value, MAX_BRANCH_CHARS, 'MAX_BRANCH_CHARS');
}
