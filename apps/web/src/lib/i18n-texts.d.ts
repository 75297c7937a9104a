/** The catalogue chunks the Vite plugin of vite.config.ts builds from packages/i18n (ADR 0097). */
declare module 'virtual:sceau-texts/*' {
  const catalogue: Record<string, Record<string, unknown>>;
  export default catalogue;
}
