import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/errors.ts';
import type { DeclaredRoute } from './access.ts';
import { errorsPlugin } from './errors.ts';
import { errorStatuses, openApiPlugin, operationId } from './openapi.ts';
import { openApiDocument } from './openapi-document.ts';

type Operation = { security?: Array<Record<string, string[]>>; operationId?: string; responses: Record<string, { $ref?: string; content?: unknown }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }>;
  };
};

let document: Document;
let declared: DeclaredRoute[];
const operations: Array<{ method: string; path: string; operation: Operation }> = [];

beforeAll(async () => {
  const built = await openApiDocument();
  document = built.document as unknown as Document;
  declared = built.declaredRoutes;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) operations.push({ method: method.toUpperCase(), path, operation });
  }
});

/** `/api/users/{id}` → `/api/users/:id`, the route as Fastify declares it. */
const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const accessOf = (method: string, path: string) => declared.find((r) => r.method === method && r.url === routeOf(path))?.access;

describe('the OpenAPI document', () => {
  it('documents every declared API route', () => {
    expect(declared.length).toBeGreaterThan(80);
    for (const route of declared)
      expect(
        operations.some((o) => o.method === route.method && routeOf(o.path) === route.url),
        `${route.method} ${route.url}`,
      ).toBe(true);
  });

  it('asks for the bearer token on every non-public operation and for nothing on public ones', () => {
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    let publicOnes = 0;
    for (const { method, path, operation } of operations) {
      // Outside /api, public by nature: the issuer's identity, the trust services (ADR 0135), the
      // credentials' issuer profile and status lists (ADR 0144) and the SD-JWT VC type (ADR 0145).
      const outside = ['/.well-known/', '/pki/', '/credentials/', '/vct/'].some((prefix) => path.startsWith(prefix)) || path === '/tsa';
      const access = outside ? 'public' : accessOf(method, path);
      expect(access, `${method} ${path}`).toBeDefined();
      if (access === 'public') {
        publicOnes++;
        expect(operation.security, `${method} ${path}`).toEqual([]);
        expect(operation.responses['401'], `${method} ${path}`).toBeUndefined();
      } else {
        expect(operation.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
        expect(operation.responses['401']?.$ref, `${method} ${path}`).toBe('#/components/responses/Unauthenticated');
        expect(operation.responses['403']?.$ref, `${method} ${path}`).toBe('#/components/responses/Forbidden');
      }
    }
    expect(publicOnes).toBeGreaterThan(5);
  });

  it('gives every operation its error responses with the one shared error body', () => {
    const errorBody = { $ref: '#/components/schemas/Error' };
    for (const response of Object.values(document.components.responses)) expect(response.content['application/json'].schema).toEqual(errorBody);
    expect(document.components.schemas.Error).toMatchObject({ type: 'object', required: ['code', 'message'] });
    for (const { method, path, operation } of operations) {
      expect(operation.responses['500']?.$ref, `${method} ${path}`).toBe('#/components/responses/InternalError');
      expect(operation.responses['503'], `${method} ${path}`).toBeDefined();
      if (path.includes('{')) expect(operation.responses['404'], `${method} ${path}`).toBeDefined();
      expect(operation.operationId, `${method} ${path}`).toBeTruthy();
    }
    expect(new Set(operations.map((o) => o.operation.operationId)).size).toBe(operations.length);
  });

  it('keeps what a route declares itself (readiness answers 503 with its own body)', () => {
    const ready = document.paths['/api/health/ready']!.get!;
    expect(ready.responses['503']?.$ref).toBeUndefined();
    expect(ready.responses['503']?.content).toBeDefined();
    // A rate-limited route says so with the shared error body, and gets the shared response.
    expect(document.paths['/api/verify/{id}']!.get!.responses['429']?.$ref).toBe('#/components/responses/RateLimited');
    expect(document.paths['/api/health']!.get!.responses['429']).toBeUndefined();
  });

  it('holds the shared schemas once, referenced, and no unused component', () => {
    for (const name of ['Error', 'PageMeta', 'Generation', 'GenerationAbilities', 'User', 'ValidationBatch', 'ValidationItem', 'Signature']) {
      expect(document.components.schemas[name], name).toBeDefined();
    }
    const text = JSON.stringify(document);
    for (const name of Object.keys(document.components.schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });
});

describe('derived error responses', () => {
  it('follow access, parameters and method', () => {
    expect(errorStatuses({ method: 'GET', url: '/api/health' }, 'public')).toEqual([500, 503]);
    expect(errorStatuses({ method: 'GET', url: '/api/users/:id' }, 'user')).toEqual([401, 403, 404, 422, 500, 503]);
    expect(errorStatuses({ method: 'POST', url: '/api/users' }, { anyPermission: ['users.create'] })).toEqual([400, 401, 403, 409, 413, 415, 422, 500, 503]);
    expect(operationId('GET', '/api/generations/:id/export-zip')).toBe('getGenerationsByIdExportZip');
  });

  it('are enforced: an error body goes out through the error schema, and one that breaks it is refused', async () => {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorsPlugin);
    await app.register(openApiPlugin);
    const params = z.object({ id: z.coerce.number().int() });
    app.post('/api/things/:id', { config: { access: { anyPermission: ['users.edit'] } }, schema: { params } }, async () => {
      throw new AppError('conflict');
    });
    app.get('/api/things/:id', { config: { access: 'public' }, schema: { params } }, async (_request, reply) => reply.code(404).send({ nope: true }));
    await app.ready();
    try {
      const conflict = await app.inject({ method: 'POST', url: '/api/things/1', payload: {} });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toMatchObject({ code: 'conflict', message: expect.any(String) });
      const invalid = await app.inject({ method: 'POST', url: '/api/things/x', payload: {} });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json()).toMatchObject({ code: 'validation_failed', errors: { id: [expect.any(String)] } });
      // A body outside the contract is a bug of ours: the client gets a 500, not the stray body.
      const stray = await app.inject({ method: 'GET', url: '/api/things/1' });
      expect(stray.statusCode).toBe(500);
      expect(stray.json()).toMatchObject({ code: 'internal_error' });
    } finally {
      await app.close();
    }
  });
});
