// Typed routes: each route is declared once with zod schemas for its path parameters, query and JSON body
// and its responses. The same declaration validates requests (through the safe body reader) and produces
// the OpenAPI document served at /openapi.json, so the document cannot drift from what the server does.

import { IncomingMessage } from 'node:http';
import type { Context, Hono, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Principal } from '../../adapters/store/index.ts';
import { readJsonBody } from './body.ts';
import { ApiError } from './errors.ts';

export type AppEnv = { Variables: { principal: Principal; route: string } };

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  readonly description: string;
  /** Classic zod or zod/mini (the answers the browser parses too: responses.ts). */
  readonly schema?: z.core.$ZodType;
  /** Default application/json; `text/event-stream` for streams. */
  readonly contentType?: string;
  /** The same status also answers an event stream (when the request asks `Accept: text/event-stream`). */
  readonly eventStream?: true;
}

export type Responses = Readonly<Record<number, ResponseSpec>>;

/** `c.json(body)` without a status is the 200 answer: Hono types its status as any contentful code. */
type StatusOf<S> = S extends 200 ? ContentfulStatusCode : S extends ContentfulStatusCode ? S : never;

/** An answer may hold readonly arrays (it is serialized): only the shape must be the schema's. */
type ReadonlyDeep<T> = T extends readonly (infer E)[]
  ? readonly ReadonlyDeep<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

/** A JSON answer of one declared status: its body must be what that status's schema describes. */
type JsonAnswer<R extends Responses> = {
  [S in keyof R]: R[S] extends { readonly schema: infer T extends z.core.$ZodType }
    ? R[S] extends { readonly contentType: string }
      ? never
      : TypedResponse<ReadonlyDeep<z.output<T>>, StatusOf<S>, 'json'>
    : never;
}[keyof R];

/** Whether a route declares an answer that is not a JSON schema (no content, a stream, an image). */
type HasOtherAnswer<R extends Responses> = {
  [S in keyof R]: R[S] extends { readonly schema: z.core.$ZodType }
    ? R[S] extends { readonly contentType: string } | { readonly eventStream: true }
      ? true
      : never
    : true;
}[keyof R];

/** Any answer but `c.json(…)`: a plain Response, `c.body(…)`, a stream. */
export type OtherAnswer = Response & { readonly _format?: 'body' | 'text' | 'redirect' };

/** `c.json(…)` of a body `schema` describes, in `status`: what helpers that answer for a handler return. */
export type JsonOf<T extends z.core.$ZodType, S extends ContentfulStatusCode> = Response &
  TypedResponse<ReadonlyDeep<z.output<T>>, S, 'json'>;

/**
 * What a handler may answer: `c.json` with a body its status's schema describes (so a handler answering
 * something the document does not say fails to type-check: test/apps/server/openapi-types.test.ts), or, when
 * the route declares one, an answer that is not JSON.
 */
export type Answer<R extends Responses> =
  | (Response & JsonAnswer<R>)
  | (true extends HasOtherAnswer<R> ? OtherAnswer : never);

/**
 * A status a handler answers with `c.json(body, status)` that its route does not declare (the 200 entry
 * accepts `c.json(body)`, whose status Hono types as any code, so an explicit one is checked here).
 */
type UndeclaredStatus<A, R extends Responses> = A extends { readonly _status: infer U }
  ? ContentfulStatusCode extends U
    ? never
    : Exclude<U, keyof R>
  : never;

export interface RouteSpec<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.core.$ZodType,
  R extends Responses = Responses,
> {
  readonly method: Method;
  /** Hono path (`/v1/sessions/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** A non-JSON body (archives): its content types, read by the handler itself. */
  readonly rawBody?: { readonly contentTypes: readonly string[]; readonly description: string };
  /** Whether an API key (or the local user) is needed; default true. */
  readonly auth?: boolean;
  readonly responses: R;
}

export interface Handled<P, Q, B> {
  readonly c: Context<AppEnv>;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
}

function issuesOf(error: z.core.$ZodError): Array<{ path: string; message: string }> {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}

/** `value` read with `schema` (classic zod or zod/mini: a body may be a schema the browser shares). */
function parse<T extends z.core.$ZodType>(schema: T | undefined, value: unknown, where: string): z.infer<T> {
  if (schema === undefined) return undefined as z.infer<T>;
  const result = z.safeParse(schema, value);
  if (!result.success) {
    throw new ApiError(400, 'invalid_request', `the request ${where} is not valid`, {
      issues: issuesOf(result.error),
    });
  }
  return result.data;
}

/** The query parameters of a request URL, the last of a repeated name winning (no query: none). */
function queryOf(url: string): Record<string, string> {
  return url.includes('?') ? Object.fromEntries(new URL(url).searchParams) : {};
}

/** The Node request under the Web one when @hono/node-server serves the app (its `env`); else undefined. */
export function nodeRequestOf(c: Context<AppEnv>): IncomingMessage | undefined {
  const env = c.env as { incoming?: unknown } | undefined;
  return env?.incoming instanceof IncomingMessage ? env.incoming : undefined;
}

export class RouteRegistry {
  readonly routes: RouteSpec<z.ZodType, z.ZodType, z.core.$ZodType>[] = [];

  constructor(
    readonly app: Hono<AppEnv>,
    readonly maxJsonBodyBytes: () => number,
  ) {}

  add<
    P extends z.ZodType = z.ZodUndefined,
    Q extends z.ZodType = z.ZodUndefined,
    B extends z.core.$ZodType = z.ZodUndefined,
    const R extends Responses = Responses,
    A extends Answer<R> = Answer<R>,
  >(
    spec: RouteSpec<P, Q, B, R>,
    handler: (input: Handled<z.infer<P>, z.infer<Q>, z.infer<B>>) => A | Promise<A>,
    ...undeclared: UndeclaredStatus<A, R> extends never ? [] : [status: UndeclaredStatus<A, R>]
  ): void {
    this.routes.push(spec as unknown as RouteSpec<z.ZodType, z.ZodType, z.core.$ZodType>);
    this.app.on(spec.method.toUpperCase(), spec.path, async (c) => {
      c.set('route', spec.path);
      const params = parse(spec.params, c.req.param(), 'path');
      // URLSearchParams only: no nested query objects, so `a[__proto__][x]=1` is just an odd key name.
      const query = parse(spec.query, spec.query === undefined ? undefined : queryOf(c.req.url), 'query');
      const body =
        spec.body === undefined
          ? undefined
          : parse(
              spec.body,
              await readJsonBody(c.req.raw, this.maxJsonBodyBytes(), nodeRequestOf(c)),
              'body',
            );
      return handler({ c, params, query, body: body as z.infer<B> });
    });
  }

  /** The OpenAPI 3.1 document of every registered route. */
  document(info: { title: string; version: string }): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const route of this.routes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      paths[path] ??= {};
      paths[path][route.method] = operationOf(route);
    }
    return {
      openapi: '3.1.0',
      info,
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from MNESOS_API_KEYS' },
        },
      },
      security: [{ apiKey: [] }],
      paths,
    };
  }
}

type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.core.$ZodType>;

/** The JSON Schema of what a request may send (io: input). */
function jsonSchemaOf(s: z.core.$ZodType): unknown {
  return z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
}

/** One route's operation: summary, tag, parameters, request body and responses. */
function operationOf(route: AnyRoute): Record<string, unknown> {
  const requestBody = requestBodyOf(route);
  return {
    summary: route.summary,
    tags: [route.tag],
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    responses: responsesOf(route.responses),
    ...(route.auth === false ? { security: [] } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
  };
}

/** Each field of an object schema as a parameter (path parameters are always required). */
function parametersOf(s: z.ZodType | undefined, where: 'path' | 'query'): unknown[] {
  if (s === undefined || !(s instanceof z.ZodObject)) return [];
  return Object.entries(s.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.safeParse(undefined).success,
    schema: jsonSchemaOf(field),
  }));
}

function responsesOf(responses: Responses): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(responses)) {
    out[status] = {
      description: response.description,
      ...(response.schema || response.contentType
        ? {
            content: {
              [response.contentType ?? 'application/json']: response.schema
                ? { schema: jsonSchemaOf(response.schema) }
                : {},
              ...(response.eventStream ? { 'text/event-stream': {} } : {}),
            },
          }
        : {}),
    };
  }
  return out;
}

/** A JSON body's schema, or a raw body's content types (a route declaring both documents the raw one). */
function requestBodyOf(route: AnyRoute): Record<string, unknown> | undefined {
  if (route.rawBody) {
    return {
      required: true,
      description: route.rawBody.description,
      content: Object.fromEntries(
        route.rawBody.contentTypes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
  }
  if (route.body)
    return { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body) } } };
  return undefined;
}
