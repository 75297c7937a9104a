import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodySchemaOf, EndpointShape, ParamsSchemaOf, QuerySchemaOf } from '@sceau/contracts';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Registers the API's routes from their definitions in `@sceau/contracts` (ADR 0125): method,
 * path, schemas, OpenAPI summary and access come from the definition, the route adds the handler.
 */

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** The Fastify schema a definition gives: what the handler's request and reply are typed from. */
export interface SchemaOf<E extends EndpointShape> {
  params: ParamsSchemaOf<E>;
  querystring: QuerySchemaOf<E>;
  body: BodySchemaOf<E>;
  response: E['responses'];
}

export type EndpointHandler<E extends EndpointShape> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider
>;

/** Route options a definition does not carry (body limits, hooks, extra config such as rate limits). */
export type ExtraRouteOptions = Omit<RouteShorthandOptions, 'schema' | 'config'> & { config?: Omit<FastifyContextConfig, 'access' | 'endpoint'> };

/** Registers `definition` on `app` with `handler`. */
export function serve<E extends EndpointShape>(app: ZodApp, definition: E, handler: EndpointHandler<E>, extra: ExtraRouteOptions = {}): void {
  const { config, ...options } = extra;
  app.route({
    ...options,
    method: definition.method,
    url: definition.path,
    config: { ...config, access: definition.access, endpoint: definition },
    schema: {
      tags: [...definition.tags],
      summary: definition.summary,
      ...(definition.description ? { description: definition.description } : {}),
      ...(definition.params ? { params: definition.params } : {}),
      ...(definition.query ? { querystring: definition.query } : {}),
      ...(definition.body ? { body: definition.body } : {}),
      ...(definition.multipart ? { consumes: ['multipart/form-data'] } : {}),
      response: definition.responses,
    },
    handler: handler as RouteHandlerMethod,
  });
}
