import type { endpoints as definitions } from '@sceau/contracts';
import routes from 'virtual:sceau-endpoints';

/**
 * The API's calls as the web uses them (ADR 0125): typed by their definitions in @sceau/contracts,
 * carrying at run time only what a call needs (method, path, form or file), which the build reads
 * from those definitions (vite.config.ts). Pass them to `api` (lib/api.ts).
 */
export const endpoints = routes as unknown as typeof definitions;
