import { CONTEXTS, CONTEXT_URLS } from './contexts.ts';
import type { DidDocument } from './did-web.ts';

/**
 * A JSON-LD document loader that never goes to the network (ADR 0144): the shipped contexts, the
 * DID documents it is given (the ministry's `did:web`, built from its published keys), and
 * whatever else the caller resolves locally (the platform's own status lists). Anything else is
 * refused, so a credential cannot make a verifier fetch an address of its choosing.
 */
export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: object;
}
export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

export interface LoaderOptions {
  /** The DID documents known here, by DID (e.g. the ministry's `did:web`). */
  didDocuments?: DidDocument[] | (() => Promise<DidDocument[]>);
  /** Other documents resolved locally (e.g. a status list credential by its URL); null: unknown. */
  resolve?: (url: string) => Promise<object | null>;
}

export class DocumentNotFoundError extends Error {
  override name = 'DocumentNotFoundError';
}

export function createDocumentLoader(options: LoaderOptions = {}): DocumentLoader {
  const didDocuments = async () => (typeof options.didDocuments === 'function' ? await options.didDocuments() : (options.didDocuments ?? []));
  return async (url: string) => {
    const found = (document: object): RemoteDocument => ({ contextUrl: null, documentUrl: url, document: structuredClone(document) });
    const context = CONTEXTS.get(url);
    if (context) return found(context);
    if (url.startsWith('did:')) {
      const [did, fragment] = url.split('#', 2);
      const document = (await didDocuments()).find((d) => d.id === did);
      if (!document) throw new DocumentNotFoundError(`unknown DID: ${did}`);
      if (fragment === undefined) return found(document);
      const method = document.verificationMethod.find((m) => m.id === url);
      if (!method) throw new DocumentNotFoundError(`unknown verification method: ${url}`);
      return found({ '@context': CONTEXT_URLS.multikeyV1, ...method });
    }
    const other = options.resolve ? await options.resolve(url) : null;
    if (other) return found(other);
    throw new DocumentNotFoundError(`not resolved locally (no network): ${url}`);
  };
}
