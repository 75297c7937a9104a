/**
 * Creates the first root account of an installation started without demo data:
 *   npm run create-root -- --email admin@ministere.cd --name "Mbuyi" [--first-name "Odette"]
 * The password is read from the SCEAU_ROOT_PASSWORD variable or asked on the terminal (never an argument,
 * which would stay in the shell history).
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { pino } from 'pino';
import { PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { createRootAccount, seedCatalogue } from '../seed/seed.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string' }, 'first-name': { type: 'string' } },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const email = z.string().email().safeParse(values.email);
if (!email.success) fail('Usage: npm run create-root -- --email <e-mail> --name <name> [--first-name <first name>]');
if (!values.name || values.name.trim().length < 3) fail('--name needs at least 3 characters');

let password = process.env.SCEAU_ROOT_PASSWORD;
if (!password) {
  if (!process.stdin.isTTY) fail('Set SCEAU_ROOT_PASSWORD, or run this in a terminal to type the password.');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password for the root account: ');
  rl.close();
}
if (password.length < PASSWORD_MIN_LENGTH) fail(`The password needs at least ${PASSWORD_MIN_LENGTH} characters`);

const config = loadConfig();
const database = await openDatabase(config, pino({ level: 'warn' }));
try {
  await seedCatalogue(database.db);
  const user = await createRootAccount(database.db, { email: email.data, password, name: values.name.trim(), firstName: values['first-name'] });
  console.log(`Root account #${user.id} created for ${email.data}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
