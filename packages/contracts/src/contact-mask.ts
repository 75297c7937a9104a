/**
 * Where a code or a message went, shown without giving the whole contact away (ADR 0125's one rule
 * for the API's answers and the web's pages): `al•••@example.cd`, `+243••••••678`.
 */
export function maskContact(contact: string): string {
  const at = contact.indexOf('@');
  if (at > 0) {
    const local = contact.slice(0, at);
    // Two letters at most, and never the whole name.
    return `${local.slice(0, Math.min(2, local.length - 1))}•••${contact.slice(at)}`;
  }
  // Too short to show both ends and still hide something: hide it all.
  if (contact.length <= 7) return '•'.repeat(contact.length);
  return `${contact.slice(0, 4)}${'•'.repeat(contact.length - 7)}${contact.slice(-3)}`;
}
