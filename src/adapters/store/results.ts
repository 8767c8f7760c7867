// The shape of an expected refusal, shared by every part of the store.

export type Failure<R extends string> = { ok: false; reason: R };
