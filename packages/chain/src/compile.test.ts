import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARTIFACT_PATH, compileRegistry, renderArtifact } from './compile.ts';

describe('compiled artifact', () => {
  it('matches a fresh compilation of contracts/DiplomaRegistry.sol (run `npm run compile -w packages/chain` after editing it)', () => {
    const fresh = renderArtifact(compileRegistry());
    const committed = readFileSync(ARTIFACT_PATH, 'utf8');
    expect(committed === fresh, 'src/generated/diploma-registry.ts is stale: run npm run compile -w packages/chain').toBe(true);
  });

  it('records the compiler version and settings with the bytecode', () => {
    const compiled = compileRegistry();
    expect(compiled.compiler.version).toMatch(/^0\.8\.\d+\+commit\./);
    expect(compiled.compiler.settings.evmVersion).toBe('paris');
    expect(compiled.bytecode.startsWith('0x60')).toBe(true);
  });
});
