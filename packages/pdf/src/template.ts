// The diploma template: a page design as plain data (JSON), validated with zod. Coordinates are in
// millimetres from the top-left corner of the page; font sizes and line widths are in points.
import { z } from 'zod';
import { fontRoles } from './fonts.ts';

/** The values a diploma prints, already formatted for display by the caller. */
export const diplomaFieldsSchema = z.object({
  /** Full name as printed, e.g. "Ngalula Kabamba Élodie" (last, middle, first). */
  name: z.string().min(1),
  /** "né" or "née" as the candidate's gender agrees; "né(e)" when it is not known. */
  born: z.string().default('né(e)'),
  birthPlace: z.string(),
  birthDate: z.string(),
  option: z.string(),
  school: z.string(),
  centre: z.string(),
  session: z.string(),
  /** Without the sign, as given (up to two decimals): "72,5", "68,25". */
  percentage: z.string(),
  issueDate: z.string(),
  diplomaNumber: z.string().min(1),
  province: z.string().default(''),
  issuePlace: z.string().default(''),
  candidateCode: z.string().default(''),
  /** The issuer as its credential names it (ADR 0129); the heading prints it on two lines. */
  issuerName: z.string().default(''),
  issuerNameTop: z.string().default(''),
  issuerNameBottom: z.string().default(''),
});
export type DiplomaFields = z.input<typeof diplomaFieldsSchema>;
export const diplomaFieldKeys = Object.keys(diplomaFieldsSchema.shape) as Array<keyof DiplomaFields>;

const mm = z.number().finite();
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb');
const opacity = z.number().min(0).max(1).default(1);

export const textStyleSchema = z.object({
  font: z.enum(fontRoles),
  /** Points. */
  size: z.number().positive().max(300),
  color: color.default('#1b1b1b'),
  align: z.enum(['left', 'center', 'right']).default('left'),
  /** Extra space between characters, in points. */
  letterSpacing: z.number().default(0),
  /** Millimetres: longer text is scaled down to fit. */
  maxWidth: z.number().positive().optional(),
});
export type TextStyle = z.output<typeof textStyleSchema>;

const placeholderPattern = /\{([a-zA-Z]+)\}/g;

/**
 * Values the static design may print, taken from the template itself rather than from a diploma:
 * `{ministerTitle}` is the ministry signatory's title as registered, with its article in lower case
 * for the middle of a sentence ("La Ministre" → "la Ministre"), so that the attestation and the
 * signature name the same person the same way.
 */
export const templateValueKeys = ['ministerTitle'] as const;
export type TemplateValueKey = (typeof templateValueKeys)[number];

export const signatureRoles = ['ministry', 'inspectorGeneral', 'juryPresident'] as const;
export type SignatureRole = (typeof signatureRoles)[number];

const box = { x: mm, y: mm, w: z.number().positive(), h: z.number().positive() };

export const templateElementSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rect'), ...box, fill: color.optional(), stroke: color.optional(), lineWidth: z.number().positive().default(0.5), opacity }),
  z.object({ type: z.literal('line'), x1: mm, y1: mm, x2: mm, y2: mm, color, lineWidth: z.number().positive().default(0.5), opacity }),
  /** Guilloche border: two rules framing a band of interlaced waves, with rosettes at the corners. */
  z.object({
    type: z.literal('border'),
    inset: z.number().nonnegative(),
    band: z.number().positive(),
    color,
    accent: color,
    waves: z.number().int().min(1).max(12).default(5),
  }),
  /** Spirograph rosette (hypotrochoid curves), the classic banknote guilloche. */
  z.object({
    type: z.literal('rosette'),
    cx: mm,
    cy: mm,
    radius: z.number().positive(),
    lobes: z.number().int().min(3).max(96).default(24),
    curves: z.number().int().min(1).max(24).default(6),
    color,
    lineWidth: z.number().positive().default(0.25),
    opacity,
  }),
  /** A horizontal band of interlaced sine waves. */
  z.object({
    type: z.literal('waves'),
    ...box,
    periods: z.number().positive().default(12),
    curves: z.number().int().min(1).max(16).default(4),
    color,
    lineWidth: z.number().positive().default(0.25),
    opacity,
  }),
  /** Placeholder coat of arms drawn as vectors (shield, star, spear and tusk, motto ribbon). */
  z.object({ type: z.literal('emblem'), cx: mm, cy: mm, size: z.number().positive(), color, accent: color, motto: z.string().default('') }),
  /** Tiny repeated text along a rectangle inset from the page edge (a security feature). */
  z.object({ type: z.literal('microtext'), text: z.string().min(1), inset: z.number().nonnegative(), size: z.number().positive().default(2.2), color }),
  z.object({ type: z.literal('text'), text: z.string(), x: mm, y: mm, style: textStyleSchema }),
]);
export type TemplateElement = z.output<typeof templateElementSchema>;

export const fieldTextSchema = z.object({
  /** Text with placeholders such as "Né(e) à {birthPlace}, le {birthDate}". */
  text: z.string().min(1),
  x: mm,
  /** Baseline. */
  y: mm,
  style: textStyleSchema,
});

const qrBoxSchema = z.object({ x: mm, y: mm, size: z.number().positive(), caption: z.string().default('') });

export const diplomaTemplateSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    version: z.literal(1),
    page: z.object({ width: z.number().positive(), height: z.number().positive(), paper: color.default('#ffffff') }),
    /** The static design, drawn once per renderer into a reusable form XObject. */
    background: z.array(templateElementSchema),
    fields: z.array(fieldTextSchema),
    photo: z.object({ ...box, frame: color.optional() }),
    signatures: z
      .array(
        z.object({
          role: z.enum(signatureRoles),
          ...box,
          title: z.string(),
          signerName: z.string(),
          titleStyle: textStyleSchema,
          nameStyle: textStyleSchema,
        }),
      )
      .max(3),
    qr: z.object({ verify: qrBoxSchema, offline: qrBoxSchema, captionStyle: textStyleSchema }),
  })
  .superRefine((template, ctx) => {
    template.background.forEach((element, index) => {
      if (element.type !== 'text') return;
      for (const [, key] of element.text.matchAll(placeholderPattern)) {
        if (!templateValueKeys.includes(key as TemplateValueKey)) {
          ctx.addIssue({ code: 'custom', path: ['background', index, 'text'], message: `unknown template value {${key}} (known: ${templateValueKeys.join(', ')})` });
        }
      }
    });
    template.fields.forEach((field, index) => {
      for (const [, key] of field.text.matchAll(placeholderPattern)) {
        if (!diplomaFieldKeys.includes(key as keyof DiplomaFields)) {
          ctx.addIssue({ code: 'custom', path: ['fields', index, 'text'], message: `unknown field {${key}}` });
        }
      }
    });
  });

export type DiplomaTemplate = z.output<typeof diplomaTemplateSchema>;
export type DiplomaTemplateInput = z.input<typeof diplomaTemplateSchema>;

export function parseDiplomaTemplate(input: unknown): DiplomaTemplate {
  return diplomaTemplateSchema.parse(input);
}

/**
 * The issuer's name for a heading of two lines: cut at the space that keeps the longer line
 * shortest (a name of up to 36 characters stays on one line).
 */
export function issuerNameFields(name: string): Pick<DiplomaFields, 'issuerName' | 'issuerNameTop' | 'issuerNameBottom'> {
  const clean = name.trim().replace(/\s+/g, ' ');
  if (clean.length <= 36) return { issuerName: clean, issuerNameTop: clean, issuerNameBottom: '' };
  let best = { line1: clean, line2: '' };
  for (let at = clean.indexOf(' '); at !== -1; at = clean.indexOf(' ', at + 1)) {
    const line1 = clean.slice(0, at);
    const line2 = clean.slice(at + 1);
    if (Math.max(line1.length, line2.length) < Math.max(best.line1.length, best.line2.length)) best = { line1, line2 };
  }
  return { issuerName: clean, issuerNameTop: best.line1, issuerNameBottom: best.line2 };
}

/**
 * A title for the middle of a sentence: its leading article in lower case ("Le Ministre" → "le
 * Ministre", "L'Inspectrice" → "l'Inspectrice"); a title registered without an article gets "le"
 * (the generic form the text had before titles were taken from the signatures).
 */
export function titleInSentence(title: string): string {
  const clean = title.trim().replace(/\s+/g, ' ');
  if (!clean) return 'le Ministre';
  const article = /^(le|la|les)\s|^l['’]/i.exec(clean);
  if (article) return article[0].toLowerCase() + clean.slice(article[0].length);
  return `le ${clean}`;
}

/** The template's own values (`templateValueKeys`), from its signature boxes. */
export function templateValues(template: Pick<DiplomaTemplate, 'signatures'>): Record<TemplateValueKey, string> {
  const ministry = template.signatures.find((signature) => signature.role === 'ministry');
  return { ministerTitle: titleInSentence(ministry?.title ?? '') };
}

/** Replaces {key} placeholders with field values. */
export function fillPlaceholders(text: string, fields: Record<string, string>): string {
  return text.replace(placeholderPattern, (_, key: string) => fields[key] ?? '');
}
