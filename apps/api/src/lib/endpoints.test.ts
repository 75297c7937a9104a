import { allEndpoints } from '@sceau/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../plugins/access.ts';
import { openApiDocument } from '../plugins/openapi-document.ts';

let declared: DeclaredRoute[];

beforeAll(async () => {
  declared = (await openApiDocument()).declaredRoutes;
});

describe('the endpoint definitions (ADR 0125)', () => {
  it('register every /api route: none is declared by hand', () => {
    const byHand = declared.filter((route) => !route.endpoint).map((route) => `${route.method} ${route.url}`);
    expect(byHand).toEqual([]);
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
