// The national Diplôme d'État template shipped with the platform. Schools' and countries' templates
// are copies of this data with their own texts, colours and positions.
import type { DiplomaTemplateInput } from './template.ts';

const navy = '#1d3461';
const ink = '#1b1b1b';
const gold = '#b08a36';

export const diplomeEtatTemplate: DiplomaTemplateInput = {
  id: 'cd-diplome-etat',
  name: "Diplôme d'État",
  version: 1,
  page: { width: 297, height: 210, paper: '#fffdf7' },
  background: [
    { type: 'rosette', cx: 148.5, cy: 118, radius: 56, lobes: 40, curves: 5, color: '#d8dfeb', lineWidth: 0.35 },
    { type: 'rosette', cx: 148.5, cy: 118, radius: 30, lobes: 28, curves: 3, color: '#efe6cf', lineWidth: 0.3 },
    { type: 'border', inset: 7, band: 9, color: navy, accent: gold, waves: 4 },
    { type: 'microtext', text: "RÉPUBLIQUE DÉMOCRATIQUE DU CONGO · DIPLÔME D'ÉTAT", inset: 18.6, size: 2, color: '#7d8aa6' },
    { type: 'emblem', cx: 148.5, cy: 33, size: 25, color: '#2a6fb8', accent: '#d4a72c', motto: 'JUSTICE · PAIX · TRAVAIL' },
    { type: 'text', text: 'RÉPUBLIQUE DÉMOCRATIQUE DU CONGO', x: 78, y: 30, style: { font: 'display', size: 11.5, color: navy, align: 'center', letterSpacing: 0.5 } },
    { type: 'line', x1: 60, y1: 45, x2: 96, y2: 45, color: gold, lineWidth: 0.6 },
    { type: 'text', text: "EXAMEN D'ÉTAT", x: 219, y: 30, style: { font: 'display', size: 11.5, color: navy, align: 'center', letterSpacing: 0.5 } },
    { type: 'line', x1: 201, y1: 45, x2: 237, y2: 45, color: gold, lineWidth: 0.6 },
    { type: 'text', text: "DIPLÔME D'ÉTAT", x: 148.5, y: 68, style: { font: 'display', size: 34, color: navy, align: 'center', letterSpacing: 2.5 } },
    { type: 'waves', x: 103, y: 71.5, w: 91, h: 4.5, periods: 9, curves: 3, color: gold, lineWidth: 0.35 },
    { type: 'text', text: "Vu les résultats de l'Examen d'État, {ministerTitle} atteste que", x: 148.5, y: 85, style: { font: 'italic', size: 12, color: ink, align: 'center' } },
    {
      type: 'text',
      text: 'En foi de quoi, le présent diplôme lui est délivré pour servir et valoir ce que de droit.',
      x: 148.5,
      y: 150,
      style: { font: 'italic', size: 10.5, color: ink, align: 'center' },
    },
  ],
  fields: [
    // The ministry's name comes from the diploma's credential (the issuer's configured name when signed).
    { text: '{issuerNameTop}', x: 78, y: 36.5, style: { font: 'italic', size: 11, color: ink, align: 'center', maxWidth: 80 } },
    { text: '{issuerNameBottom}', x: 78, y: 41.5, style: { font: 'italic', size: 11, color: ink, align: 'center', maxWidth: 80 } },
    { text: 'Session {session}', x: 219, y: 36.5, style: { font: 'regular', size: 11, color: ink, align: 'center' } },
    { text: 'N° {diplomaNumber}', x: 219, y: 41.5, style: { font: 'regular', size: 10.5, color: ink, align: 'center' } },
    { text: '{name}', x: 148.5, y: 97, style: { font: 'bold', size: 25, color: navy, align: 'center', maxWidth: 160 } },
    { text: '{born} à {birthPlace}, le {birthDate}', x: 148.5, y: 105.5, style: { font: 'regular', size: 13, color: ink, align: 'center', maxWidth: 160 } },
    { text: "a satisfait aux épreuves de l'Examen d'État dans l'option", x: 148.5, y: 114, style: { font: 'italic', size: 12, color: ink, align: 'center' } },
    { text: '{option}', x: 148.5, y: 122.5, style: { font: 'bold', size: 17, color: navy, align: 'center', maxWidth: 160 } },
    { text: 'avec {percentage} % des points', x: 148.5, y: 130.5, style: { font: 'regular', size: 13, color: ink, align: 'center' } },
    { text: 'Établissement : {school}', x: 148.5, y: 137.5, style: { font: 'regular', size: 11.5, color: ink, align: 'center', maxWidth: 165 } },
    {
      text: "Centre d'examen : {centre} · Province éducationnelle : {province}",
      x: 148.5,
      y: 143.5,
      style: { font: 'regular', size: 11.5, color: ink, align: 'center', maxWidth: 165 },
    },
    { text: 'Fait à {issuePlace}, le {issueDate}', x: 148.5, y: 157.5, style: { font: 'regular', size: 11.5, color: ink, align: 'center' } },
    { text: 'Code candidat : {candidateCode}', x: 41, y: 101.5, style: { font: 'regular', size: 8.5, color: ink, align: 'center' } },
  ],
  photo: { x: 25, y: 54, w: 32, h: 41, frame: gold },
  signatures: [
    {
      role: 'juryPresident',
      x: 70,
      y: 167,
      w: 46,
      h: 15,
      title: 'Le Président du Jury',
      signerName: 'Prof. Jean-Pierre Mbuyi Kalala',
      titleStyle: { font: 'italic', size: 10, color: ink },
      nameStyle: { font: 'regular', size: 9.5, color: ink },
    },
    {
      role: 'inspectorGeneral',
      x: 125.5,
      y: 167,
      w: 46,
      h: 15,
      title: "L'Inspecteur Général",
      signerName: 'Marie-Thérèse Lukusa Ngoyi',
      titleStyle: { font: 'italic', size: 10, color: ink },
      nameStyle: { font: 'regular', size: 9.5, color: ink },
    },
    {
      role: 'ministry',
      x: 181,
      y: 167,
      w: 46,
      h: 15,
      title: 'Le Ministre',
      signerName: 'Aimée-Raïssa Kabongo Tshala',
      titleStyle: { font: 'italic', size: 10, color: ink },
      nameStyle: { font: 'regular', size: 9.5, color: ink },
    },
  ],
  qr: {
    verify: { x: 247, y: 152, size: 27, caption: 'Vérifier en ligne' },
    offline: { x: 22, y: 145, size: 38, caption: 'Vérification hors ligne' },
    captionStyle: { font: 'italic', size: 8, color: ink },
  },
};
