import type { GenerationItemView } from '@sceau/contracts';

/** "MUKENDI KABONGO Aline": the order of the national lists (nom, postnom, prénom). */
export function candidateName(item: Pick<GenerationItemView, 'last_name' | 'middle_name' | 'first_name'>): string {
  return [item.last_name, item.middle_name, item.first_name].filter((part) => part && part.trim() !== '').join(' ');
}
