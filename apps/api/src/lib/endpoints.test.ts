import { allEndpoints, RESUMABLE_UPLOADS_PATH } from '@sceau/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../plugins/access.ts';
import { openApiDocument } from '../plugins/openapi-document.ts';

let declared: DeclaredRoute[];

beforeAll(async () => {
  declared = (await openApiDocument()).declaredRoutes;
});

describe('the endpoint definitions (ADR 0125)', () => {
  it('register every /api route: none is declared by hand, but the tus protocol of resumable uploads', () => {
    // tus 1.0 (ADR 0150) is a protocol of headers and raw bytes answered by the tus server itself,
    // not a JSON call: its routes carry their access like every /api route (the access matrix
    // walks them), under the path the contracts name.
    const tus = [`POST /api${RESUMABLE_UPLOADS_PATH}`, `PATCH /api${RESUMABLE_UPLOADS_PATH}/:id`, `DELETE /api${RESUMABLE_UPLOADS_PATH}/:id`];
    const byHand = declared.filter((route) => !route.endpoint).map((route) => `${route.method} ${route.url}`);
    expect(byHand.sort()).toEqual(tus.sort());
  });

  it('are each served once, at their own method and path', () => {
    for (const { id, definition } of allEndpoints()) {
      const served = declared.filter((route) => route.endpoint === definition);
      expect(served.length, id).toBe(1);
      expect(`${served[0]!.method} ${served[0]!.url}`, id).toBe(`${definition.method} /api${definition.path}`);
      expect(served[0]!.access, id).toEqual(definition.access);
    }
  });

  it('give each method and path to one definition only', () => {
    const keys = allEndpoints().map(({ definition }) => `${definition.method} ${definition.path}`);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
