import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * `@foundry-rs/anvil` ships the real binary in one optional dependency per platform
 * (`@foundry-rs/anvil-linux-amd64/bin/anvil`, ...), installed by npm like any package: no install
 * script needed (the package's postinstall only downloads a binary when that optional package is
 * missing, which needs internet). We resolve that binary and run it directly, not the package's
 * `bin.mjs` wrapper, so the supervised pid is Anvil's own and signals reach it.
 */
const PLATFORM_PACKAGES: Record<string, Record<string, string>> = {
  linux: { x64: 'anvil-linux-amd64', arm64: 'anvil-linux-arm64' },
  darwin: { x64: 'anvil-darwin-amd64', arm64: 'anvil-darwin-arm64' },
  win32: { x64: 'anvil-win32-amd64' },
};

export function findAnvilBinary(override = process.env.ANVIL_BINARY): string {
  if (override) {
    if (!existsSync(override)) throw new Error(`ANVIL_BINARY points at ${override}, which does not exist`);
    return override;
  }
  const pkg = PLATFORM_PACKAGES[process.platform]?.[process.arch];
  if (!pkg) throw new Error(`Anvil has no npm binary for ${process.platform}/${process.arch}; set ANVIL_BINARY`);
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  // Resolve from @foundry-rs/anvil's own location, where npm put its optional dependencies.
  const require = createRequire(import.meta.url);
  const wrapper = require.resolve('@foundry-rs/anvil/package.json');
  try {
    return createRequire(wrapper).resolve(`@foundry-rs/${pkg}/bin/${binary}`);
  } catch (err) {
    throw new Error(`the Anvil binary package @foundry-rs/${pkg} is not installed (run npm install; optional dependencies must not be omitted), or set ANVIL_BINARY`, {
      cause: err,
    });
  }
}
