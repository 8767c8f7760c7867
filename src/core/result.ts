// The answer of a check that either gives a value or says, in one message, why it could not: the one
// declaration of that shape for every module that returns it.

export type Checked<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };
