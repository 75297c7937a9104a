export const diplomasEndpoints = {} as const;
