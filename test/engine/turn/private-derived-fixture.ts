// The planted secret of test/fixtures/cartridges/dial-secret and each way its rules copy it, for the tests
// of every view a player or the Narrator reads (test/engine/turn/private-derived.test.ts,
// test/apps/server/private-derived.test.ts).

export const SECRET = 'SECRET-4812';

/** Each event copying the secret, with the public sentence of its note that must still be told. */
export const DERIVED_PATHS = [
  ['via_temp', 'The dial clicks once.'],
  ['via_foreach', 'The dial clicks twice.'],
  ['via_call', 'The dial by the door clicks once.'],
  ['via_format', 'The dial clicks once.'],
  ['via_macro', 'The dial clicks once.'],
] as const;
