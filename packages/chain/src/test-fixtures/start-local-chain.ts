// Started by local-chain.test.ts as a separate Node process, then killed with -9 so that its
// Anvil is left running, as after a crash of the platform.
import { startLocalChain } from '../local-chain.ts';

const [dataDir, port] = process.argv.slice(2);
const chain = await startLocalChain({ dataDir: dataDir!, port: Number(port) });
process.stdout.write(`${JSON.stringify({ pid: chain.pid, rpcUrl: chain.rpcUrl })}\n`);
setInterval(() => {}, 1_000); // wait for the kill
