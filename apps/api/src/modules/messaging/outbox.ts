import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** An e-mail's attachment, kept as a file beside the message (`file`: relative to the outbox folder). */
export interface OutboxAttachment {
  filename: string;
  content_type: string;
  size: number;
  file: string;
}

export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  created_at: string;
  attachments?: OutboxAttachment[];
}

/**
 * The default delivery: one JSON file per message under `DATA_DIR/outbox/`, so that development and
 * tests can read what a person would have received. Files are written whole (temp file + rename).
 */
export class Outbox {
  constructor(readonly dir: string) {}

  async write(
    message: Omit<OutboxMessage, 'id' | 'created_at' | 'attachments'>,
    attachments: { filename: string; contentType: string; content?: Buffer; path?: string }[] = [],
  ): Promise<OutboxMessage> {
    await mkdir(this.dir, { recursive: true });
    const createdAt = new Date();
    const id = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${message.channel}-${randomBytes(4).toString('hex')}`;
    const kept: OutboxAttachment[] = [];
    for (const [index, attachment] of attachments.entries()) {
      const file = path.join(`${id}-files`, `${index + 1}-${attachment.filename.replace(/[^A-Za-z0-9._-]+/g, '-')}`);
      await mkdir(path.join(this.dir, `${id}-files`), { recursive: true });
      if (attachment.path) await copyFile(attachment.path, path.join(this.dir, file));
      else await writeFile(path.join(this.dir, file), attachment.content ?? Buffer.alloc(0));
      kept.push({ filename: attachment.filename, content_type: attachment.contentType, size: (await stat(path.join(this.dir, file))).size, file });
    }
    const full: OutboxMessage = { id, ...message, created_at: createdAt.toISOString(), ...(kept.length ? { attachments: kept } : {}) };
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
