import { comparableName, isPublished, type CandidateCheckRequest, type CandidateCheckResult, type GenerationStatus } from '@sceau/contracts';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { pgRateLimiter, rateLimited } from '../../lib/rate-limits.ts';
import type { Db } from '../../db/client.ts';
import { diplomas, examSessions, generations, nationalResults } from '../../db/schema.ts';

type NameParts = { lastName: string; middleName: string | null; firstName: string | null };

function fullNameOf(row: NameParts): string {
  return [row.lastName, row.middleName, row.firstName].filter(Boolean).join(' ');
}

/**
 * The candidate check (`POST /v2/verify-candidate`, ADR 0090) against the national results
 * registry: a person is recognised when the code, session, birth date and full name are those of
 * one candidate and both classmates named are other candidates of the same school and session.
 * Names are compared without case, accents, extra spaces or order of their parts.
 */
export class CandidateCheckService {
  private readonly failures: RateLimiterPostgres;

  constructor(
    private readonly db: Db,
    limits: { maxFailures: number; windowMinutes: number },
  ) {
    this.failures = pgRateLimiter(db.$client, { keyPrefix: 'candidate_check', points: limits.maxFailures, durationSeconds: limits.windowMinutes * 60 });
  }

  /** 429 once an address has had too many unrecognised checks in the window (a read, no write). */
  async assertAllowed(address: string): Promise<void> {
    const res: RateLimiterRes | null = await this.failures.get(address);
    if (!res || res.consumedPoints < this.failures.points) return;
    throw rateLimited(res.msBeforeNext);
  }

  async check(input: CandidateCheckRequest, address: string): Promise<CandidateCheckResult> {
    const found = await this.recognise(input);
    if (!found) {
      await this.failures.penalty(address, 1);
      return { recognised: false };
    }
    return found;
  }

  private async recognise(input: CandidateCheckRequest): Promise<CandidateCheckResult | null> {
    const [row] = await this.db
      .select({ r: nationalResults, session: examSessions.name })
      .from(nationalResults)
      .innerJoin(examSessions, eq(examSessions.id, nationalResults.sessionId))
      .where(and(eq(nationalResults.sessionId, input.session_id), eq(nationalResults.candidateCode, input.code)));
    if (!row) return null;
    const { r } = row;
    if (r.birthDate !== input.birthdate || comparableName(fullNameOf(r)) !== comparableName(input.fullname)) return null;

    const classmates = await this.db
      .select({ lastName: nationalResults.lastName, middleName: nationalResults.middleName, firstName: nationalResults.firstName })
      .from(nationalResults)
      .where(and(eq(nationalResults.sessionId, r.sessionId), eq(nationalResults.institutionCode, r.institutionCode), ne(nationalResults.candidateCode, r.candidateCode)));
    const names = new Set(classmates.map((c) => comparableName(fullNameOf(c))));
    if (!names.has(comparableName(input.fullname_collegue_1)) || !names.has(comparableName(input.fullname_collegue_2))) return null;

    const { status, id } = await this.diplomaOf(r.candidateCode, r.sessionId, r.passed);
    return {
      recognised: true,
      candidate: { fullname: fullNameOf(r), session: row.session },
      result: { passed: r.passed, percentage: r.percentageTenths / 10 },
      diploma_status: status,
      diploma_id: id,
    };
  }

  /** The candidate's diploma of that session: the published one if any, else what became of it. */
  private async diplomaOf(code: string, sessionId: number, passed: boolean): Promise<{ status: 'available' | 'pending' | 'revoked' | 'none'; id: string | null }> {
    const rows = await this.db
      .select({ id: diplomas.id, revokedAt: diplomas.revokedAt, status: generations.status, batchRevokedAt: generations.revokedAt })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(and(eq(diplomas.candidateCode, code), eq(generations.sessionId, sessionId), ne(generations.status, 'cancelled')))
      .orderBy(desc(diplomas.issuedAt));
    const out = (d: { status: string }) => isPublished(d.status as GenerationStatus);
    const published = rows.filter(out);
    const valid = published.find((d) => !d.revokedAt && !d.batchRevokedAt);
    if (valid) return { status: 'available', id: valid.id };
    if (rows.some((d) => !out(d))) return { status: 'pending', id: null };
    if (published.length) return { status: 'revoked', id: null };
    return { status: passed ? 'pending' : 'none', id: null };
  }
}
