// Principals and their API keys: the accounts part of the store (principals.ts stores them). Types only.

import type { Failure } from './results.ts';

export interface Principal {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  principalId: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export type AddApiKeyResult = { ok: true; apiKey: ApiKey } | Failure<'principal-not-found' | 'key-taken'>;

/** Who may play: principals and the hashes of their API keys. */
export interface Accounts {
  createPrincipal(input: { id?: string; name: string; createdAt?: number }): Promise<Principal>;
  getPrincipal(id: string): Promise<Principal | undefined>;
  /** `keyHash` is `hashApiKey(raw)`: the store never sees raw keys. */
  addApiKey(input: {
    principalId: string;
    keyHash: string;
    label: string;
    createdAt?: number;
  }): Promise<AddApiKeyResult>;
  listApiKeys(principalId: string): Promise<ApiKey[]>;
  revokeApiKey(principalId: string, keyId: string, revokedAt?: number): Promise<boolean>;
  /** The principal owning an unrevoked key with this hash. */
  findPrincipalByKeyHash(keyHash: string): Promise<Principal | undefined>;
}
