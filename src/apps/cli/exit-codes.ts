export const EXIT = { ok: 0, user: 1, usage: 2, provider: 3 } as const;
