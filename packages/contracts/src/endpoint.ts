import type { z } from 'zod';
import type { Requirement } from './permissions.ts';

/**
 * One definition per API call (ADR 0125): the API registers its route, schema and access from it,
 * and the web derives its typed client from it. No path or answer type is written twice.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: 'public' anyone; 'user' any signed-in account; a Requirement a signed-in account
 * meeting it (role, then permission, then section). Object rules (scope, state) are the API's policies'.
 */
export type Access = 'public' | 'user' | Requirement;

export interface EndpointShape {
  method: HttpMethod;
  /** Relative to `/api`, with `:name` parameters (`/generations/:id`). */
  path: string;
  access: Access;
  summary: string;
  tags: readonly string[];
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** The body is a multipart form (files): the web sends FormData, the API reads its parts itself. */
  multipart?: true;
  /** The answer is a file (PDF, zip, image) of this media type, not JSON. */
  file?: string;
  /** The answers by status; errors are completed from `access` by the API's OpenAPI plugin. */
  responses: { readonly [status: number]: z.ZodType };
}

/** Keeps the literal type of a definition (its path, method and schemas) for both sides. */
export function endpoint<const E extends EndpointShape>(definition: E): E {
  return definition;
}

type Schema<E, K extends string> = E extends { [key in K]: infer S extends z.ZodType } ? S : undefined;
export type ParamsSchemaOf<E> = Schema<E, 'params'>;
export type QuerySchemaOf<E> = Schema<E, 'query'>;
export type BodySchemaOf<E> = Schema<E, 'body'>;

type SuccessStatus = 200 | 201 | 202;
type SuccessSchema<E extends EndpointShape> = E['responses'][Extract<keyof E['responses'], SuccessStatus>];

/** What a successful call answers (the JSON body), or undefined for 204 and file answers. */
export type ResponseOf<E extends EndpointShape> = [SuccessSchema<E>] extends [z.ZodType] ? z.output<SuccessSchema<E>> : undefined;

type ParamsInput<E> = ParamsSchemaOf<E> extends z.ZodType ? { params: z.input<ParamsSchemaOf<E>> } : { params?: undefined };
type QueryInput<E> = QuerySchemaOf<E> extends z.ZodType ? { query?: Partial<z.input<QuerySchemaOf<E>>> } : { query?: undefined };
type BodyInput<E> = BodySchemaOf<E> extends z.ZodType ? { body: z.input<BodySchemaOf<E>> } : E extends { multipart: true } ? { body: FormData } : { body?: undefined };

/** What a caller gives: the path's parameters, the query, the body, as the definition declares them. */
export type RequestOf<E extends EndpointShape> = ParamsInput<E> & QueryInput<E> & BodyInput<E>;

/** The path with its parameters filled in (each encoded), relative to `/api`. */
export function pathOf(definition: Pick<EndpointShape, 'path'>, params?: Readonly<Record<string, string | number>>): string {
  return definition.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${definition.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
