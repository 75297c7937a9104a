import { comparableName, isPublished, type CandidateCheckRequest, type CandidateCheckResult, type GenerationStatus } from '@sceau/contracts';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { pgRateLimiter, rateLimited } from '../../lib/rate-limits.ts';
import type { Db } from '../../db/client.ts';

type NameParts = { lastName: string; middleName: string | null; firstName: string | null };

function fullNameOf(row: NameParts): string {
  return [row.lastName, row.middleName, row.firstName].filter(Boolean).join(' ');
}

/** One row of the check's statement: the address's failures, the candidate, and what the answer needs of their classmates and diplomas. */
interface CheckRow {
  /** The check's place in its batch (from 1). */
  n: string;
  failures: number | null;
  failures_expire: string | null;
  candidate_code: string | null;
  session_id: number | null;
  institution_code: string;
  last_name: string;
  middle_name: string | null;
  first_name: string | null;
  birth_date: string;
  passed: boolean;
  percentage_tenths: number;
  session: string;
  /** The candidate's diplomas of that session, newest first (read only when the birth date matches). */
  diplomas: Array<{ id: string; revoked: boolean; status: string; batch_revoked: boolean }> | null;
}

/**
 * What changes whenever a school's results in a session change (the registry's upsert rewrites a
 * row, with a new transaction id and `imported_at`; a row added or moved changes the count): the
 * key of the names kept in memory for it. Read through the school index, no row sent.
 */
const SCHOOL_VERSION = (alias: string, session: string, school: string) => `(
    select count(*) || ':' || coalesce(max(${alias}.imported_at)::text, '') || ':' || coalesce(sum(${alias}.xmin::text::bigint), 0)
    from national_results ${alias} where ${alias}.session_id = ${session} and ${alias}.institution_code = ${school})`;

/**
 * The whole check in one statement (results day's hot path, ADR 0130): the address's failure
 * count (the `rate_limits` row rate-limiter-flexible keeps, read as its `get` reads it), the
 * candidate by session and code (unique index) and their diplomas of that session (candidate
 * index), the last only when the birth date matches (null otherwise). The version of their school's
 * results is read apart, at most every `schoolRecheckMs` per school (ADR 0153). Named: PostgreSQL parses and plans it once per connection. Every check asked in the
 * same turn of the event loop is read by this one statement, a row per check in its order (`n`,
 * ADR 0153): one round trip for all of them.
 */
const CHECK_STATEMENT = {
  name: 'candidate_check_batch',
  text: `
select q.n, rl.points as failures, rl.expire as failures_expire,
  r.candidate_code, r.session_id, r.institution_code, r.last_name, r.middle_name, r.first_name, r.birth_date, r.passed, r.percentage_tenths, s.name as session,
  case when r.birth_date = q.birthdate then (
    select coalesce(json_agg(json_build_object('id', d.id, 'revoked', d.revoked_at is not null, 'status', g.status, 'batch_revoked', g.revoked_at is not null) order by d.issued_at desc), '[]')
    from diplomas d join generations g on g.id = d.generation_id
    where d.candidate_code = r.candidate_code and g.session_id = r.session_id and g.status <> 'cancelled'
  ) end as diplomas
from unnest($1::int[], $2::varchar[], $3::varchar[], $4::varchar[]) with ordinality as q(session_id, code, birthdate, rl_key, n)
left join rate_limits rl on rl.key = q.rl_key and (rl.expire > $5 or rl.expire is null)
left join national_results r on r.session_id = q.session_id and r.candidate_code = q.code
left join exam_sessions s on s.id = r.session_id`,
};

/** The check's own connections per process (its statements are batched: a few suffice). */
const CHECK_CONNECTIONS = 3;

/** The most checks one statement carries (a bigger turn is split). */
const MAX_BATCH = 128;

/** The names of a school's candidates in a session, with the version they were read at. */
const SCHOOL_STATEMENT = {
  name: 'candidate_check_school',
  text: `
select ${SCHOOL_VERSION('v', '$1', '$2')} as version,
  coalesce((select array_agg(c.candidate_code || ' ' || concat_ws(' ', c.last_name, c.middle_name, c.first_name)) from national_results c where c.session_id = $1 and c.institution_code = $2), '{}') as candidates`,
};

/** The version of a school's results in a session (SCHOOL_VERSION), alone. */
const SCHOOL_VERSION_STATEMENT = { name: 'candidate_check_school_version', text: `select ${SCHOOL_VERSION('v', '$1', '$2')} as version` };

/**
 * How long a school's names are used without reading its version again (ADR 0153): reading it
 * walks every row of the school (hundreds), most of a check's cost in PostgreSQL. A change of a
 * school's results (an import) is seen within this time in every process.
 */
export const SCHOOL_RECHECK_MS = 5_000;

/** A school's candidates by comparable name (their codes: a homonym of the candidate is another classmate). */
interface School {
  version: string;
  byName: Map<string, string[]>;
  /** When its version was last read. */
  checkedAt: number;
}

/**
 * The candidate check (`POST /v2/verify-candidate`, ADR 0090) against the national results
 * registry: a person is recognised when the code, session, birth date and full name are those of
 * one candidate and both classmates named are other candidates of the same school and session.
 * Names are compared without case, accents, extra spaces or order of their parts. An address past
 * its unrecognised checks in the window gets 429, even with the right answers.
 */
export class CandidateCheckService {
  private readonly failures: RateLimiterPostgres;
  private readonly pool: pg.Pool;
  /**
   * Each school's candidates by comparable name, kept while its version (SCHOOL_VERSION, read again
   * at most every `schoolRecheckMs`) is unchanged: a check then compares two names instead of
   * normalising a school's.
   */
  private readonly schools = new LRUCache<string, School>({ max: 5_000 });

  /** The version reads under way, per school: the checks of a school arriving together wait for one. */
  private readonly rechecks = new Map<string, Promise<School>>();

  constructor(
    db: Db,
    limits: { maxFailures: number; windowMinutes: number },
    private readonly schoolRecheckMs = SCHOOL_RECHECK_MS,
  ) {
    // Connections of its own (ADR 0153), with the app pool's settings and limits, whose prepared
    // statements use their generic plan: left to choose, PostgreSQL planned the check's statement
    // again at every execution (custom plans), about a third of its cost.
    const base = (db.$client as pg.Pool).options;
    this.pool = new pg.Pool({
      ...base,
      max: CHECK_CONNECTIONS,
      allowExitOnIdle: true,
      options: [base.options, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' '),
    });
    this.pool.on('error', () => {});
    this.failures = pgRateLimiter(db.$client, { keyPrefix: 'candidate_check', points: limits.maxFailures, durationSeconds: limits.windowMinutes * 60 });
  }

  /** Closes its connections (the app's close). */
  async close(): Promise<void> {
    await this.pool.end();
  }

  /** 429 once the address has had too many unrecognised checks in the window; else the answer (a failure counts one). */
  async check(input: CandidateCheckRequest, address: string): Promise<CandidateCheckResult> {
    const { row, now } = await this.read(input, this.failures.getKey(address));
    if (row.failures !== null && row.failures >= this.failures.points) {
      throw rateLimited(row.failures_expire === null ? -1 : Math.max(Number(row.failures_expire) - now, 0));
    }
    const found = await this.recognise(row, input);
    if (!found) {
      await this.failures.penalty(address, 1);
      return { recognised: false };
    }
    return found;
  }

  /** The checks waiting for this turn's statement. */
  private pending: Array<{ input: CandidateCheckRequest; key: string; resolve: (read: { row: CheckRow; now: number }) => void; reject: (error: unknown) => void }> = [];

  /** This check's row, read with every other check asked in the same turn of the event loop (ADR 0153). */
  private read(input: CandidateCheckRequest, key: string): Promise<{ row: CheckRow; now: number }> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ input, key, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const all = this.pending;
    this.pending = [];
    for (let at = 0; at < all.length; at += MAX_BATCH) void this.run(all.slice(at, at + MAX_BATCH));
  }

  private async run(batch: typeof this.pending): Promise<void> {
    const now = Date.now();
    try {
      const { rows } = await this.pool.query<CheckRow>({
        ...CHECK_STATEMENT,
        values: [batch.map((c) => c.input.session_id), batch.map((c) => c.input.code), batch.map((c) => c.input.birthdate), batch.map((c) => c.key), now],
      });
      const byPlace = new Map(rows.map((row) => [Number(row.n), row]));
      batch.forEach((c, i) => {
        const row = byPlace.get(i + 1);
        if (row) c.resolve({ row, now });
        else c.reject(new Error('candidate check: no row for a check of the batch'));
      });
    } catch (error) {
      for (const c of batch) c.reject(error);
    }
  }

  private async recognise(row: CheckRow, input: CandidateCheckRequest): Promise<CandidateCheckResult | null> {
    if (row.candidate_code === null || row.diplomas === null) return null; // unknown code, or another birth date
    const candidate = { lastName: row.last_name, middleName: row.middle_name, firstName: row.first_name };
    if (row.birth_date !== input.birthdate || comparableName(fullNameOf(candidate)) !== comparableName(input.fullname)) return null;
    const school = await this.school(row.session_id!, row.institution_code);
    const classmate = (name: string) => (school.byName.get(comparableName(name)) ?? []).some((code) => code !== row.candidate_code);
    if (!classmate(input.fullname_collegue_1) || !classmate(input.fullname_collegue_2)) return null;
    return answer(row, candidate);
  }

  /**
   * The school's candidates by comparable name: from memory while its version was read less than
   * `schoolRecheckMs` ago; else its version is read again, and its names only when it changed.
   */
  private async school(sessionId: number, institutionCode: string): Promise<School> {
    const key = `${sessionId}|${institutionCode}`;
    const kept = this.schools.get(key);
    if (kept && Date.now() - kept.checkedAt < this.schoolRecheckMs) return kept;
    let recheck = this.rechecks.get(key);
    if (!recheck) {
      recheck = this.readSchool(key, sessionId, institutionCode, kept).finally(() => this.rechecks.delete(key));
      this.rechecks.set(key, recheck);
    }
    return recheck;
  }

  private async readSchool(key: string, sessionId: number, institutionCode: string, kept: School | undefined): Promise<School> {
    const checkedAt = Date.now();
    if (kept) {
      const { rows } = await this.pool.query<{ version: string }>({ ...SCHOOL_VERSION_STATEMENT, values: [sessionId, institutionCode] });
      if (rows[0]!.version === kept.version) {
        kept.checkedAt = checkedAt;
        return kept;
      }
    }
    const { rows } = await this.pool.query<{ version: string; candidates: string[] }>({ ...SCHOOL_STATEMENT, values: [sessionId, institutionCode] });
    const byName = new Map<string, string[]>();
    for (const entry of rows[0]!.candidates) {
      const at = entry.indexOf(' ');
      const name = comparableName(entry.slice(at + 1));
      byName.set(name, [...(byName.get(name) ?? []), entry.slice(0, at)]);
    }
    const school = { version: rows[0]!.version, byName, checkedAt };
    this.schools.set(key, school);
    return school;
  }
}

function answer(row: CheckRow, candidate: NameParts): CandidateCheckResult {
  const { status, id } = diplomaOf(row.diplomas!, row.passed);
  return {
    recognised: true,
    candidate: { fullname: fullNameOf(candidate), session: row.session },
    result: { passed: row.passed, percentage: row.percentage_tenths / 10 },
    diploma_status: status,
    diploma_id: id,
  };
}

/** The candidate's diploma of that session: the published one if any, else what became of it. */
function diplomaOf(rows: NonNullable<CheckRow['diplomas']>, passed: boolean): { status: 'available' | 'pending' | 'revoked' | 'none'; id: string | null } {
  const out = (d: { status: string }) => isPublished(d.status as GenerationStatus);
  const published = rows.filter(out);
  const valid = published.find((d) => !d.revoked && !d.batch_revoked);
  if (valid) return { status: 'available', id: valid.id };
  if (rows.some((d) => !out(d))) return { status: 'pending', id: null };
  if (published.length) return { status: 'revoked', id: null };
  return { status: passed ? 'pending' : 'none', id: null };
}
