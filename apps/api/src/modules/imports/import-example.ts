import { IMPORT_COLUMNS } from '@sceau/contracts';
import ExcelJS from 'exceljs';

/** Three candidates of the demo's first school (Kinshasa-Funa), written the ways real lists write them (contacts optional). */
const EXAMPLE_ROWS = [
  [
    '20260000100001',
    'Kabongo',
    'wa Ilunga',
    'Marie-Claire',
    '14/03/2007',
    'Kinshasa',
    'F',
    'LIT',
    'KIN-FUN-C1-E1',
    'KIN-FUN-C1',
    '72,5',
    '20260000100001.jpg',
    '+243 81 234 5678',
    'marie.kabongo@example.cd',
  ],
  [
    '20260000100002',
    "N'Sele",
    'Mbuyi',
    'Jean-Baptiste',
    '2006-11-02',
    'Mbuji-Mayi',
    'M',
    'Secrétariat-Administration',
    'KIN-FUN-C1-E1',
    'KIN-FUN-C1',
    '68.1',
    '20260000100002.jpg',
    '0991234567',
    '',
  ],
  ['20260000100003', 'Lukusa', 'Tshibola', 'Bénédicte', '21/07/2007', 'Kananga', 'Féminin', 'ELE', 'KIN-FUN-C1-E1', 'KIN-FUN-C1', '80', '', '', ''],
] as const;

export const EXAMPLE_HEADERS = IMPORT_COLUMNS.map((c) => c.key);

/** The example list: UTF-8 with a byte-order mark (Excel then shows accents right), `;`-separated. */
export function exampleCsv(): Buffer {
  const quote = (v: string) => (/[;"\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [EXAMPLE_HEADERS.join(';'), ...EXAMPLE_ROWS.map((r) => r.map(quote).join(';'))];
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}

/** The same as a workbook; the code and phone columns are text so a spreadsheet keeps their digits. */
export async function exampleXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Candidats');
  sheet.addRow([...EXAMPLE_HEADERS]);
  sheet.getRow(1).font = { bold: true };
  for (const row of EXAMPLE_ROWS) sheet.addRow([...row]);
  sheet.getColumn(1).numFmt = '@';
  // Phone numbers as text too: a number cell would drop the leading 0 or +.
  sheet.getColumn(EXAMPLE_HEADERS.indexOf('telephone') + 1).numFmt = '@';
  for (const column of sheet.columns) column.width = 18;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
