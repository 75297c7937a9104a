export const generationsEndpoints = {} as const;
