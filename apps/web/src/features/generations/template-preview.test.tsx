import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { schematicOf, TemplatePreview } from '@/features/generations/template-preview';

// The parts of the national design (packages/pdf default-template.ts) that the schematic draws.
const design = {
  page: { width: 297, height: 210, paper: '#fffdf7' },
  background: [
    { type: 'border', inset: 7, band: 9, color: '#1d3461', accent: '#b08a36' },
    { type: 'text', text: 'RÉPUBLIQUE DÉMOCRATIQUE DU CONGO', x: 78, y: 30, style: { font: 'display', size: 11.5, color: '#1d3461', align: 'center', letterSpacing: 0.5 } },
    { type: 'text', text: "DIPLÔME D'ÉTAT", x: 148.5, y: 68, style: { font: 'display', size: 34, color: '#1d3461', align: 'center', letterSpacing: 2.5 } },
  ],
  photo: { x: 25, y: 54, w: 32, h: 41, frame: '#b08a36' },
  signatures: [{ role: 'ministry', x: 181, y: 167, w: 46, h: 15 }],
  qr: { verify: { x: 247, y: 152, size: 27 }, offline: { x: 22, y: 145, size: 38 } },
};

describe('TemplatePreview', () => {
  it('draws the title at the size the diploma prints it (points to millimetres), clear of the photo box', () => {
    const s = schematicOf(design);
    // "DIPLÔME D'ÉTAT" is set in 34 pt with 2.5 pt spacing: 12 mm and 0.88 mm on the page.
    expect(s.title).toMatchObject({ text: "DIPLÔME D'ÉTAT", x: 148.5, align: 'center' });
    expect(s.title!.size).toBeCloseTo(12, 1);
    expect(s.title!.spacing).toBeCloseTo(0.88, 2);
    // A generous estimate of the width of capitals in a serif face: 0.75 em each.
    const width = s.title!.text.length * 0.75 * s.title!.size + s.title!.spacing * (s.title!.text.length - 1);
    expect(s.title!.x - width / 2).toBeGreaterThan(s.photo!.x + s.photo!.w);
  });

  it('renders the title text with that size and spacing', () => {
    const { container } = render(<TemplatePreview design={design} label="Aperçu" />);
    const title = container.querySelector('text')!;
    expect(title.textContent).toBe("DIPLÔME D'ÉTAT");
    expect(Number(title.getAttribute('font-size'))).toBeCloseTo(12, 1);
    expect(Number(title.getAttribute('letter-spacing'))).toBeCloseTo(0.88, 2);
  });
});
