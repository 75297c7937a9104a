import type { VerificationResultData } from '@sceau/contracts';
import { MAX_PORTABLE_BYTES, sniffPortable, verifyPortable, type PortableContext, type PortableResult } from '@sceau/verifier/portable';
import type { Config } from '../../config.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import type { Translate } from './verification-service.ts';

export { MAX_PORTABLE_BYTES };

/** The platform's published status lists (the credential-status module), read from its own state. */
export interface PlatformStatusLists {
  hasList(list: number): Promise<boolean>;
  tokenStatusList(list: number): Promise<{ token: string }>;
  bitstringCredential(list: number): Promise<{ credential: Record<string, unknown> }>;
}

/**
 * What an uploaded text is, when it is a portable form (ADR 0145): an SD-JWT VC or a W3C VC JSON.
 * `too_large` for one past the bound (told before anything is parsed); null for anything else,
 * which the PDF, credential document and QR path takes.
 */
export function portableForm(text: string): 'sd-jwt' | 'vc' | 'too_large' | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_PORTABLE_BYTES) {
    const sdJwtLike = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~/.test(trimmed.slice(0, 4096));
    const vcLike = trimmed.startsWith('{') && trimmed.slice(0, 4096).includes('"@context"');
    return sdJwtLike || vcLike ? 'too_large' : null;
  }
  return sniffPortable(trimmed);
}

/**
 * Verifies an SD-JWT VC or a W3C VC upload against the platform itself: its own address and keys
 * are the only trusted issuer (a look-alike issuer is refused, ADR 0137), and the revocation is
 * read from its own status lists, not fetched. Without status lists, the status is not checked.
 */
export class PortableVerification {
  private readonly base: string;

  constructor(
    private readonly config: Pick<Config, 'publicUrl' | 'issuer'>,
    private readonly keys: MinistryKeys,
    private readonly statusLists: PlatformStatusLists | null,
  ) {
    this.base = config.publicUrl.replace(/\/+$/, '');
  }

  private listOf(url: string, token: boolean): number | null {
    const prefix = `${this.base}/credentials/status/`;
    if (!url.startsWith(prefix)) return null;
    const match = (token ? /^(\d{1,9})\/token$/ : /^(\d{1,9})$/).exec(url.slice(prefix.length));
    return match ? Number(match[1]) : null;
  }

  private context(): PortableContext {
    const lists = this.statusLists;
    return {
      issuers: [{ url: this.base, id: this.config.issuer.id, name: this.config.issuer.name, jwks: this.keys.jwks() }],
      fetchTokenStatusList: async (uri) => {
        const list = this.listOf(uri, true);
        if (!lists || list === null || !(await lists.hasList(list))) throw new Error(`not one of this platform's status lists: ${uri}`);
        return (await lists.tokenStatusList(list)).token;
      },
      fetchStatusListCredential: async (url) => {
        const list = this.listOf(url, false);
        if (!lists || list === null || !(await lists.hasList(list))) return null;
        return (await lists.bitstringCredential(list)).credential;
      },
    };
  }

  /** null when the text is not a portable form. */
  verify(text: string): Promise<PortableResult | null> {
    return verifyPortable(text, this.context());
  }
}

/** A portable form's result in the shape of every verification answer (verdict, named checks, diploma). */
export function presentPortable(result: PortableResult, t: Translate): VerificationResultData {
  return {
    verdict: result.verdict,
    verdict_label: t(`verification:verdict.${result.verdict}`),
    source: result.form,
    checks: result.checks.map((c) => ({
      name: c.name,
      status: c.status,
      code: c.code,
      title: t(`verification:check.${c.name}`),
      message: t(`verification:code.${c.code}`),
      details: c.details ?? null,
    })),
    diploma: result.diploma ?? null,
  };
}
