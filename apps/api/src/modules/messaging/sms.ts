import type { Outbox } from './outbox.ts';

export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

/**
 * An SMS gateway over HTTP (ADR 0007): `POST <url>` with a bearer token and a JSON body
 * `{ from, to, text }`; any 2xx is accepted, anything else is an error with the gateway's answer.
 * Most gateways (or a small adapter in front of one) accept this shape.
 */
export class HttpSmsSender implements SmsSender {
  constructor(
    private readonly url: string,
    private readonly token: string | null,
    private readonly sender: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(to: string, text: string): Promise<void> {
    const response = await this.fetchImpl(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({ from: this.sender, to, text }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      throw new Error(`SMS gateway answered ${response.status}: ${detail}`);
    }
  }
}

export class OutboxSmsSender implements SmsSender {
  constructor(private readonly outbox: Outbox) {}
  async send(to: string, text: string): Promise<void> {
    await this.outbox.write({ channel: 'sms', to, subject: null, text, html: null });
  }
}
