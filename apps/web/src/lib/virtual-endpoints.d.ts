/** Built from @sceau/contracts' endpoint definitions (vite.config.ts, `endpointRoutes`). */
declare module 'virtual:sceau-endpoints' {
  const routes: Record<string, Record<string, { method: string; path: string; multipart?: true; file?: string }>>;
  export default routes;
}
