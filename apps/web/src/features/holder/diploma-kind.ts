import { GENERATION_TYPES, type GenerationType } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';

const isKind = (kind: string): kind is GenerationType => (GENERATION_TYPES as readonly string[]).includes(kind);

/** A diploma's kind in words (`diplome_etat` → "Diplôme d'État"); a kind this app does not know shows as it is. */
export function useDiplomaKindLabel(): (kind: string | null | undefined) => string | null {
  const { t } = useTranslation();
  return (kind) => {
    if (!kind) return null;
    return isKind(kind) ? t(`holder.kinds.${kind}`) : kind;
  };
}
