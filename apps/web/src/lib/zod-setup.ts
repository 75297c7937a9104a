/**
 * zod checks whether the page may compile code (`new Function`) when it builds an object schema, to
 * parse faster: under the server's Content-Security-Policy (no 'unsafe-eval') that check is a
 * reported violation, which the browser lists as an issue (Lighthouse Best practices, ADR 0151).
 * The forms' schemas are small: they are parsed without compiling (zod's `jitless`).
 *
 * Set through the global object zod reads its configuration from, before zod loads: importing
 * zod's `config()` here would bring zod's core into the first page's JavaScript (3.6 KB brotli),
 * which the pages without a form do not need. zod-setup.test.ts checks that zod still reads it.
 * Imported first by main.tsx, before any schema exists.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;

export {};
