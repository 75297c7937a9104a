import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  created_at: string;
}

/**
 * The default delivery: one JSON file per message under `DATA_DIR/outbox/`, so that development and
 * tests can read what a person would have received. Files are written whole (temp file + rename).
 */
export class Outbox {
  constructor(readonly dir: string) {}

  async write(message: Omit<OutboxMessage, 'id' | 'created_at'>): Promise<OutboxMessage> {
    await mkdir(this.dir, { recursive: true });
    const createdAt = new Date();
    const id = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${message.channel}-${randomBytes(4).toString('hex')}`;
    const full: OutboxMessage = { id, ...message, created_at: createdAt.toISOString() };
    const file = path.join(this.dir, `${id}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(full, null, 2));
    await rename(`${file}.tmp`, file);
    return full;
  }

  /** Newest first; optionally only the messages to one address. */
  async list(filter: { to?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    names.sort().reverse();
    const out: OutboxMessage[] = [];
    for (const name of names) {
      const message = JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as OutboxMessage;
      if (filter.to && message.to !== filter.to) continue;
      out.push(message);
      if (out.length >= (filter.limit ?? 100)) break;
    }
    return out;
  }
}
