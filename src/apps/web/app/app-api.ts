// What the shell asks the server about itself: `/healthz` (the model mode and whether author mode is on),
// parsed with the contract's schema (apps/contract).

import { healthResponse } from '../../contract/index.ts';
import type { ApiHttp } from '../lib/http.ts';

export function readHealth(http: ApiHttp) {
  return http.answer(healthResponse, 'GET', '/healthz');
}
