// Personas: who a principal plays (personas.ts stores them). Types only.

import type { JsonValue } from './json.ts';
import type { Failure } from './results.ts';

export interface Persona {
  id: string;
  principalId: string;
  name: string;
  data: JsonValue;
  createdAt: number;
  updatedAt: number;
}

export type PersonaResult = { ok: true; persona: Persona } | Failure<'principal-not-found'>;

/** A principal's personas. */
export interface Personas {
  createPersona(input: {
    principalId: string;
    name: string;
    data: unknown;
    createdAt?: number;
  }): Promise<PersonaResult>;
  getPersona(id: string, principalId: string): Promise<Persona | undefined>;
  listPersonas(principalId: string): Promise<Persona[]>;
  updatePersona(
    id: string,
    principalId: string,
    patch: { name?: string; data?: unknown; updatedAt?: number },
  ): Promise<Persona | undefined>;
  /** Sessions that used the persona keep playing; their `personaId` becomes null. */
  deletePersona(id: string, principalId: string): Promise<boolean>;
}
