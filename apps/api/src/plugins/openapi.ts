import {
  auditEntryView,
  broadcastView,
  centre,
  country,
  educProvince,
  errorResponse,
  examSession,
  generationAbilities,
  generationItemView,
  generationStats,
  generationView,
  importCheckResult,
  importRowError,
  institution,
  nationalResultView,
  option,
  pageMeta,
  permissionView,
  profile,
  roleView,
  scopeView,
  signatureView,
  templateView,
  userView,
  validationBatchView,
  validationItemView,
} from '@sceau/contracts';
import type { SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from './access.ts';

/**
 * Schemas that recur across operations, documented once under `components.schemas` and referenced
 * elsewhere. Named here rather than in the contracts so the web bundle carries no OpenAPI names.
 */
const COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [errorResponse, 'Error'],
  [pageMeta, 'PageMeta'],
  [generationAbilities, 'GenerationAbilities'],
  [generationView, 'Generation'],
  [generationItemView, 'GenerationItem'],
  [generationStats, 'GenerationStats'],
  [validationBatchView, 'ValidationBatch'],
  [validationItemView, 'ValidationItem'],
  [userView, 'User'],
  [profile, 'Profile'],
  [roleView, 'Role'],
  [permissionView, 'Permission'],
  [scopeView, 'Scope'],
  [signatureView, 'Signature'],
  [auditEntryView, 'AuditEntry'],
  [broadcastView, 'Broadcast'],
  [importCheckResult, 'ImportCheckResult'],
  [importRowError, 'ImportRowError'],
  [nationalResultView, 'NationalResult'],
  [templateView, 'Template'],
  [country, 'Country'],
  [examSession, 'ExamSession'],
  [educProvince, 'EducProvince'],
  [option, 'Option'],
  [centre, 'Centre'],
  [institution, 'Institution'],
];

/** Gives each shared schema its component name in zod's global registry (what the type provider reads). */
export function registerComponents(): void {
  for (const [schema, id] of COMPONENTS) {
    const current = z.globalRegistry.get(schema);
    if (current?.id === id) continue;
    // A second module graph in the same process (tests) left the name on an older copy of the schema.
    const previous = z.globalRegistry._idmap.get(id);
    if (previous) z.globalRegistry.remove(previous);
    z.globalRegistry.add(schema, { ...current, id });
  }
}

/** The shared error responses, by status: what each means to a client. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Malformed request (e.g. a body that is not valid JSON)' },
  401: { name: 'Unauthenticated', description: 'No valid bearer token' },
  403: { name: 'Forbidden', description: "The account lacks the route's role, permission or section, or must first change its temporary password" },
  404: { name: 'NotFound', description: 'No such object, or one outside the caller’s scope' },
  409: { name: 'Conflict', description: 'The object is not in a state that allows this' },
  413: { name: 'PayloadTooLarge', description: 'The body or an uploaded file is too large' },
  415: { name: 'UnsupportedMediaType', description: 'The body’s content type is not accepted' },
  422: { name: 'ValidationFailed', description: 'Invalid parameters, query or body; `errors` names each field' },
  429: { name: 'RateLimited', description: 'Too many calls; `retry-after` says when to try again' },
  500: { name: 'InternalError', description: 'Unexpected failure' },
  503: { name: 'ServiceUnavailable', description: 'The database (or a needed service) is unavailable; try again after `retry-after`' },
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The error statuses a route can answer, from what it declares: its access, parameters and method. */
export function errorStatuses(route: Pick<RouteOptions, 'method' | 'url' | 'schema'>, access: Access): number[] {
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  const hasParams = route.url.includes(':') || Boolean(route.schema?.params);
  const takesBody = Boolean(route.schema?.body) || methods.some((m) => BODY_METHODS.has(m) && m !== 'DELETE');
  const statuses = [500, 503];
  if (access !== 'public') statuses.push(401, 403);
  if (hasParams) statuses.push(404);
  if (takesBody) statuses.push(400, 413, 415);
  if (hasParams || takesBody || route.schema?.querystring || route.schema?.body) statuses.push(422);
  // A change to an object goes through its policy, which refuses one in the wrong state (ADR 0120).
  if (typeof access === 'object' && methods.some((m) => BODY_METHODS.has(m))) statuses.push(409);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/**
 * Completes each documented route's schema before Fastify compiles it: the error responses it can
 * answer (all with the one error body, so error bodies are checked like any other response) and
 * its security requirement, both derived from `config.access`. What a route declares itself wins.
 * Registered before the routes: `onRoute` only sees routes added after it.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  registerComponents();
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    // Routes without an access policy are not the API's (the web app); the access plugin refuses them under /api.
    if (!access || (route.schema as { hide?: boolean } | undefined)?.hide) return;
    // Copies: routes may share a schema or a response map, and each gets its own statuses.
    const response: Record<string, unknown> = { ...(route.schema?.response as Record<string, unknown> | undefined) };
    const schema: Record<string, unknown> = { ...route.schema, response };
    route.schema = schema;
    schema.security ??= access === 'public' ? [] : [{ bearer: [] }];
    if (!Array.isArray(route.method)) schema.operationId ??= operationId(route.method, route.url);
    for (const status of errorStatuses(route, access)) {
      if (String(status) in response || `${String(status)[0]}xx` in response) continue;
      response[status] = errorResponse;
    }
  });
});

/** `GET /api/generations/:id/status` → `getGenerationsByIdStatus`: stable names for generated clients. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/)/, '')
    .split('/')
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};
type Response = { description?: string; content?: Record<string, { schema?: { $ref?: string } }>; $ref?: string };
type Schema = { type?: string; nullable?: boolean; allOf?: Array<{ $ref?: string }> };

const ERROR_REF = '#/components/schemas/Error';

/**
 * The document's last step: the type provider's components, each shared error response written once
 * under `components.responses`, and components nothing references removed (the provider emits an
 * input and an output variant of every named schema, and most are only used one way).
 */
export const openApiTransformObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as Document;
  const responses: Record<string, Response> = {};
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      // Without a declared success (files, images), Swagger's own "200" was dropped once errors were added.
      if (!Object.keys(operation.responses ?? {}).some((status) => /^[23]/.test(status))) {
        operation.responses = { 200: { description: 'Success' }, ...operation.responses };
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const shared = ERROR_RESPONSES[Number(status)];
        const schema = response.content?.['application/json']?.schema;
        if (!shared || schema?.$ref !== ERROR_REF || (response.description && response.description !== 'Default Response')) continue;
        responses[shared.name] = { description: shared.description, content: { 'application/json': { schema: { $ref: ERROR_REF } } } };
        operation.responses![status] = { $ref: `#/components/responses/${shared.name}` };
      }
    }
  }
  document.components = { ...document.components, responses: { ...document.components?.responses, ...responses } };
  typeNullableReferences(document);
  pruneUnusedSchemas(document);
  return document as ReturnType<SwaggerTransformObject>;
};

/**
 * A nullable named schema comes out as `{ nullable: true, allOf: [{ $ref }] }`, and OpenAPI 3.0 gives
 * `nullable` no meaning without a `type` beside it: the referenced component's type is copied there.
 */
function typeNullableReferences(document: Document): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const schema = value as Schema;
    const ref = schema.allOf?.length === 1 ? schema.allOf[0]!.$ref : undefined;
    if (schema.nullable && !schema.type && ref?.startsWith('#/components/schemas/')) {
      const type = schemas[ref.slice('#/components/schemas/'.length)]?.type;
      if (type) schema.type = type;
    }
    Object.values(value).forEach(visit);
  };
  visit(document.paths);
  visit(schemas);
}

function pruneUnusedSchemas(document: Document): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(document.paths);
  visit({ ...document.components, schemas: undefined });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
