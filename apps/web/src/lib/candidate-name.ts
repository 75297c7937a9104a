/** "MUKENDI KABONGO Aline": the order of the national lists (nom, postnom, prénom). */
export function candidateName(item: { last_name: string | null; middle_name: string | null; first_name: string | null }): string {
  return [item.last_name, item.middle_name, item.first_name].filter((part) => part && part.trim() !== '').join(' ');
}
