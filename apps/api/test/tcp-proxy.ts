/**
 * A TCP proxy a test controls, between the platform and its database: `hang()` stops every byte
 * both ways (a hung server, a network black hole: connections open, nothing answers), `cut()`
 * drops every connection and refuses new ones (a lost server), `resume()` lets everything through
 * again, in order (bytes held during a hang are delivered then).
 */
import net from 'node:net';

type Mode = 'open' | 'hung' | 'down';

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export class TcpProxy {
  private mode: Mode = 'open';
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (socket) => proxy.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Connections made through the proxy that are still open. */
  get connections(): number {
    return this.pairs.size;
  }

  hang(): void {
    this.mode = 'hung';
  }

  cut(): void {
    this.mode = 'down';
    for (const pair of this.pairs) this.drop(pair);
  }

  resume(): void {
    this.mode = 'open';
    for (const pair of this.pairs) {
      if (!pair.upstream) this.connect(pair);
      this.flush(pair);
    }
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) this.drop(pair);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'down') {
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [] };
    this.pairs.add(pair);
    client.on('data', (chunk) => {
      pair.toUpstream.push(chunk);
      this.flush(pair);
    });
    client.on('error', () => this.drop(pair));
    client.on('close', () => this.drop(pair));
    if (this.mode === 'open') this.connect(pair);
  }

  private connect(pair: Pair): void {
    const upstream = net.connect(this.target.port, this.target.host);
    pair.upstream = upstream;
    upstream.on('connect', () => this.flush(pair));
    upstream.on('data', (chunk) => {
      pair.toClient.push(chunk);
      this.flush(pair);
    });
    upstream.on('error', () => this.drop(pair));
    upstream.on('close', () => this.drop(pair));
  }

  private flush(pair: Pair): void {
    if (this.mode !== 'open') return;
    if (pair.upstream && !pair.upstream.connecting) for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
  }

  private drop(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream?.destroy();
  }
}
