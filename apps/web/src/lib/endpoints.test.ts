import { allEndpoints } from '@sceau/contracts';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints';

describe("the web's endpoints (ADR 0125)", () => {
  it('carry the method and path of every definition, and none of its schemas', () => {
    const web = endpoints as unknown as Record<string, Record<string, Record<string, unknown>>>;
    for (const { id, definition } of allEndpoints()) {
      const [area = '', name = ''] = id.split('.');
      const route = web[area]?.[name];
      expect(route, id).toMatchObject({ method: definition.method, path: definition.path });
      expect(Object.keys(route!).sort(), id).toEqual(['method', 'path', ...(definition.file ? ['file'] : []), ...(definition.multipart ? ['multipart'] : [])].sort());
    }
    expect(endpoints.contact.send).toEqual({ method: 'POST', path: '/contact' });
  });
});
