import { config, object, string } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import './zod-setup';

describe('zod without compiled parsers (zod-setup.ts)', () => {
  it('sets the configuration zod reads: object schemas built then parse without compiling code', () => {
    const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
    // The object zod keeps as its configuration is the global one zod-setup writes to.
    expect(config()).toBe(scope.__zod_globalConfig);
    expect(config().jitless).toBe(true);
    const compile = vi.spyOn(globalThis, 'Function');
    const schema = object({ name: string(), nested: object({ n: string() }) });
    expect(schema.parse({ name: 'Sceau', nested: { n: 'x' } })).toEqual({ name: 'Sceau', nested: { n: 'x' } });
    expect(compile).not.toHaveBeenCalled();
  });
});
