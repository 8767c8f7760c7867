// The personas' client (docs/api.md, "Personas"): who the player plays, shared by the Library, Settings and
// the play screen's toolbar. Every answer is parsed with the contract's schema (apps/contract).

import { personaResponse, personasResponse } from '../../contract/index.ts';
import type { Persona } from '../../../core/cartridge/index.ts';
import type { ApiHttp } from '../lib/http.ts';

/** What a player writes of a persona (`background` is shown as its description): the engine's own type. */
export type PersonaFields = Persona;

/** A change to a persona: the fields given replace, `null` removes an optional one (a JSON merge patch). */
export type PersonaPatch = { [K in keyof PersonaFields]?: PersonaFields[K] | null };

const personaPath = (id: string) => `/v1/personas/${encodeURIComponent(id)}`;

export class PersonasApi {
  readonly #http: ApiHttp;

  constructor(http: ApiHttp) {
    this.#http = http;
  }

  async list() {
    return (await this.#http.answer(personasResponse, 'GET', '/v1/personas')).personas;
  }

  async create(fields: PersonaFields) {
    return (await this.#http.answer(personaResponse, 'POST', '/v1/personas', { json: fields })).persona;
  }

  async update(id: string, fields: PersonaPatch) {
    return (await this.#http.answer(personaResponse, 'PATCH', personaPath(id), { json: fields })).persona;
  }

  remove(id: string): Promise<void> {
    return this.#http.done('DELETE', personaPath(id));
  }
}
