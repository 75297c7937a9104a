// Serial numbers for diplomas (packages/credential serial.ts): DE-2026-0428715-8. Numbers are given
// per kind and session year, in blocks reserved by a statement of their own, outside the issuing
// transaction: the counter's row is locked only for that statement, so batches issued at the same
// time never queue behind each other. A batch that fails leaves a gap, never a repeat (diplomas.serial
// is unique too).
import { type GenerationType, GENERATION_TYPES } from '@sceau/contracts';
import { formatSerial, MAX_SERIAL_NUMBER } from '@sceau/credential';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomaSerialCounters } from '../../db/schema.ts';
import { BatchDataError } from './issuing-deps.ts';

/** The serial's prefix of each kind of diploma. */
export const SERIAL_PREFIXES = { diplome_etat: 'DE', attestation_reussite: 'AR' } as const satisfies Record<GenerationType, string>;

/** Two kinds never share a prefix: a serial names its kind. */
const prefixes = Object.values(SERIAL_PREFIXES);
if (new Set(prefixes).size !== prefixes.length || prefixes.length !== GENERATION_TYPES.length) throw new Error('SERIAL_PREFIXES: one distinct prefix per generation type');

/**
 * Reserves `count` consecutive serial numbers of a kind and year and returns their serials, in
 * order. Throws BatchDataError when the year's numbers (7 digits) would run out.
 */
export async function reserveSerials(db: Db, type: GenerationType, year: number, count: number): Promise<string[]> {
  if (count <= 0) return [];
  const prefix = SERIAL_PREFIXES[type];
  const { rows } = await db.execute<{ last_number: number }>(sql`
    insert into ${diplomaSerialCounters} (prefix, year, last_number) values (${prefix}, ${year}, ${count})
    on conflict (prefix, year) do update set last_number = ${diplomaSerialCounters}.last_number + excluded.last_number
    returning last_number`);
  const last = Number(rows[0]!.last_number);
  if (last > MAX_SERIAL_NUMBER) {
    throw new BatchDataError(`the serial numbers of ${prefix} ${year} would run out (${MAX_SERIAL_NUMBER} a year): ${last - count} given, ${count} more asked`);
  }
  const first = last - count + 1;
  return Array.from({ length: count }, (_, i) => formatSerial(prefix, year, first + i));
}
