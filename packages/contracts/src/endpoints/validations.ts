export const validationsEndpoints = {} as const;
