// The route registry types each handler's JSON answer by the schema its route declares for that status:
// the `@ts-expect-error` cases below are answers the document does not describe, so `npm run typecheck`
// fails if the registry ever accepts them (an unused `@ts-expect-error` is itself an error). The runtime
// part checks the document carries the event stream a status also answers.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AppEnv, RouteRegistry } from '../../../src/apps/server/openapi.ts';
import { sessionResponse } from '../../../src/apps/contract/responses.ts';
import { errorSchema } from '../../../src/apps/server/schemas.ts';
import { sseResponse } from '../../../src/apps/server/sse.ts';

const session = {
  id: 's1',
  cartridgeVersionId: 'v1',
  personaId: null,
  title: null,
  headTurnId: 't1',
  turnCount: 1,
  createdAt: 1,
  updatedAt: 2,
};

function registry(): RouteRegistry {
  return new RouteRegistry(new Hono<AppEnv>(), () => 1000);
}

describe('the route registry types answers by their declared schemas', () => {
  it('accepts the declared body in each declared status and refuses others at type level', () => {
    const api = registry();
    const spec = {
      method: 'get',
      path: '/s',
      tag: 't',
      summary: 's',
      responses: {
        200: { description: 'ok', schema: sessionResponse },
        404: { description: 'missing', schema: errorSchema },
      },
    } as const;
    api.add(spec, ({ c }) => c.json({ session }));
    api.add(spec, ({ c }) => c.json({ error: { code: 'not_found', message: 'no' } }, 404));
    // @ts-expect-error a field of the wrong type (createdAt is a number)
    api.add(spec, ({ c }) => c.json({ session: { ...session, createdAt: 'yesterday' } }));
    const { headTurnId: _, ...headless } = session;
    // @ts-expect-error a required field left out
    api.add(spec, ({ c }) => c.json({ session: headless }));
    // @ts-expect-error the 404 body answered as 200
    api.add(spec, ({ c }) => c.json({ error: { code: 'not_found', message: 'no' } }, 200));
    // @ts-expect-error a status the route does not declare
    api.add(spec, ({ c }) => c.json({ session }, 201));
    // @ts-expect-error a plain Response (a stream, no content) where only JSON is declared
    api.add(spec, () => new Response(null, { status: 204 }));
    expect(api.routes).toHaveLength(7);
  });

  it('allows a non-JSON answer only where the route declares one, and documents the event stream', () => {
    const api = registry();
    api.add(
      {
        method: 'get',
        path: '/t',
        tag: 't',
        summary: 's',
        responses: {
          200: { description: 'ok', schema: sessionResponse, eventStream: true },
          204: { description: 'nothing' },
        },
      },
      ({ c }) =>
        c.req.header('accept') === 'text/event-stream'
          ? sseResponse(async () => {})
          : c.req.query('none')
            ? c.body(null, 204)
            : c.json({ session }),
    );
    api.add(
      {
        method: 'get',
        path: '/u',
        tag: 't',
        summary: 's',
        responses: {
          200: { description: 'ok', schema: z.object({ n: z.number() }) },
          204: { description: 'x' },
        },
      },
      // @ts-expect-error a JSON body the 200 schema does not describe, even beside a non-JSON answer
      ({ c }) => c.json({ n: 'one' }),
    );
    const doc = api.document({ title: 't', version: '1' }) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
    };
    expect(Object.keys(doc.paths['/t']?.get?.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/event-stream',
    ]);
    expect(doc.paths['/t']?.get?.responses['204']?.content).toBeUndefined();
  });
});
