import { loadConfig } from './config.ts';
import { productionRefusal } from './safe-defaults.ts';

// The entry point. Safe by default (ADR 0112): production never starts on development settings.
// Checked before the platform's modules load (many seconds on a busy machine), so a refusal is
// immediate. Plain text on stderr, every problem at once; 78 is EX_CONFIG (sysexits.h).
const refusal = productionRefusal(loadConfig());
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(78);
}
await import('./platform.ts');
