import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { HEADER_HINTS, readRows } from './import-checker.ts';
import { SHEET_LIMITS } from './ods-reader.ts';
import { isCandidateLine, normaliseHeader, readTable, type Table, UnreadableTable } from './table-reader.ts';

/**
 * Lists as secretaries make them (issue 15, item 4): ODS from LibreOffice, XLSX from another
 * program than exceljs (SheetJS writes these fixtures), the CSV French LibreOffice writes, an
 * "Instructions" sheet first, a total and a signature under the list, headers as people type them.
 */

const HEADERS = ['code_candidat', 'nom', 'postnom', 'prenom', 'date_naissance', 'lieu_naissance', 'sexe', 'option', 'ecole', 'centre', 'pourcentage'];
const candidate = (code: number | string, last = 'Kabongo', first = 'Marie') => [
  code,
  last,
  'wa Ilunga',
  first,
  '14/03/2007',
  'Kinshasa',
  'F',
  'LIT',
  'KIN-FUN-C1-E1',
  'KIN-FUN-C1',
  '72,5',
];

/** A workbook written by SheetJS (another program than the reader's exceljs) as ODS or XLSX. */
function sheetJsWorkbook(sheets: [name: string, rows: unknown[][]][], bookType: 'ods' | 'xlsx'): Buffer {
  const workbook = XLSX.utils.book_new();
  for (const [name, rows] of sheets) XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows, { cellDates: true }), name);
  return XLSX.write(workbook, { type: 'buffer', bookType }) as Buffer;
}

function zipOf(entries: [name: string, content: string | Buffer, stored?: boolean][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content, stored] of entries) zip.addBuffer(Buffer.from(content), name, { compress: !stored });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * The content.xml LibreOffice Calc writes (7.x): automatic styles (one hiding a sheet), a float
 * code shown in scientific notation, a date cell, a percentage cell, spaces as `text:s`, a comment
 * on a cell, a merged title (covered cells), the empty end of each row as one repeated cell and
 * the empty end of the sheet as one row repeated to the program's last row.
 */
function libreOfficeContent(rows: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"><office:automatic-styles><style:style style:name="ta1" style:family="table" style:master-page-name="Default"><style:table-properties table:display="true" style:writing-mode="lr-tb"/></style:style><style:style style:name="ta2" style:family="table" style:master-page-name="Default"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style></office:automatic-styles><office:body><office:spreadsheet><table:calculation-settings table:automatic-find-labels="false"/><table:table table:name="Codes" table:style-name="ta2"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell office:value-type="string" calcext:value-type="string"><text:p>code_candidat</text:p></table:table-cell><table:table-cell office:value-type="string" calcext:value-type="string"><text:p>nom</text:p></table:table-cell></table:table-row></table:table><table:table table:name="Liste 2026" table:style-name="ta1"><table:table-column table:number-columns-repeated="1024"/>${rows}<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table><table:named-expressions/></office:spreadsheet></office:body></office:document-content>`;
}

const s = (text: string) => `<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
const empty = (n = 1) => (n === 1 ? '<table:table-cell/>' : `<table:table-cell table:number-columns-repeated="${n}"/>`);
const tail = '<table:table-cell table:number-columns-repeated="1013"/>';
const loRow = (cells: string) => `<table:table-row table:style-name="ro1">${cells}</table:table-row>`;

async function libreOfficeOds(rows: string): Promise<Buffer> {
  return zipOf([
    ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet', true],
    ['content.xml', libreOfficeContent(rows)],
    ['styles.xml', '<?xml version="1.0" encoding="UTF-8"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>'],
    ['META-INF/manifest.xml', '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'],
  ]);
}

const LO_HEADER = loRow(HEADERS.map(s).join('') + tail);
const loCandidate = (code: string) =>
  loRow(
    `<table:table-cell table:style-name="ce2" office:value-type="float" office:value="${code}" calcext:value-type="float"><text:p>2,03E+13</text:p></table:table-cell>` +
      `<table:table-cell office:value-type="string"><text:p>N’Sele<text:s/>Mbuyi</text:p><office:annotation><dc:creator>Secrétariat</dc:creator><text:p>vérifié</text:p></office:annotation></table:table-cell>` +
      s('') +
      s('Jean<text:s text:c="2"/>Baptiste') +
      `<table:table-cell table:style-name="ce3" office:value-type="date" office:date-value="2006-11-02" calcext:value-type="date"><text:p>02/11/06</text:p></table:table-cell>` +
      s('Mbuji-Mayi') +
      s('M') +
      s('LIT') +
      s('KIN-FUN-C1-E1') +
      s('KIN-FUN-C1') +
      `<table:table-cell table:style-name="ce4" office:value-type="percentage" office:value="0.681" calcext:value-type="percentage"><text:p>68,10 %</text:p></table:table-cell>` +
      tail,
  );

async function table(bytes: Buffer, sheet?: string): Promise<Table> {
  return readTable(bytes, HEADER_HINTS, { sheet });
}

async function reason(bytes: Buffer): Promise<string> {
  try {
    await table(bytes);
  } catch (error) {
    if (error instanceof UnreadableTable) return error.reason;
    throw error;
  }
  return 'read';
}

describe('an ODS list', () => {
  it('is read as LibreOffice writes it: numbers whole, dates and percentages as typed, repeated empty rows and cells not expanded, comments left out', async () => {
    const title = loRow(
      `<table:table-cell table:number-columns-spanned="11" table:number-rows-spanned="1" office:value-type="string"><text:p>Liste des candidats — Institut Saint-Joseph</text:p></table:table-cell><table:covered-table-cell table:number-columns-repeated="10"/>${tail}`,
    );
    const ods = await libreOfficeOds(title + loRow(empty(1024)) + LO_HEADER + loCandidate('20260000100001') + loCandidate('20260000100002'));
    const started = performance.now();
    const read = await table(ods);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(read).toMatchObject({ format: 'ods', sheet: 'Liste 2026', sheets: ['Codes', 'Liste 2026'], header: { row: 3 }, ignored: [] });
    expect(read.rows).toHaveLength(2);
    expect(read.rows[0]).toEqual({
      row: 4,
      cells: ['20260000100001', 'N’Sele Mbuyi', '', 'Jean  Baptiste', '2006-11-02', 'Mbuji-Mayi', 'M', 'LIT', 'KIN-FUN-C1-E1', 'KIN-FUN-C1', '68.1'],
    });
    const rows = await readRows(read, { sessionYear: 2026, zip: null });
    expect(rows.fileProblem).toBeNull();
    expect(rows.read[0]!.values).toMatchObject({ lastName: "N'Sele Mbuyi", firstName: 'Jean Baptiste', birthDate: '2006-11-02', percentageTenths: 681 });
  });

  it('is read as SheetJS writes it, from the first sheet with the list’s columns (an "Instructions" sheet first is passed over)', async () => {
    const ods = sheetJsWorkbook(
      [
        ['Instructions', [['Comment remplir la liste'], ['Une ligne par candidat, le code sur 14 chiffres']]],
        ['Liste', [HEADERS, candidate(20260000100001), candidate('20260000100002', 'Lukusa', 'Bénédicte')]],
      ],
      'ods',
    );
    const read = await table(ods);
    expect(read).toMatchObject({ format: 'ods', sheet: 'Liste', sheets: ['Instructions', 'Liste'] });
    expect(read.rows.map((r) => r.cells[0])).toEqual(['20260000100001', '20260000100002']);
    expect(read.rows[1]!.cells[3]).toBe('Bénédicte');
  });

  it('keeps at most SHEET_LIMITS rows and columns, however many a repetition states, so a 20,001-row list is still too long', async () => {
    const repeated = `<table:table-row table:number-rows-repeated="5000000">${s('20260000100001')}${s('Kabongo')}<table:table-cell office:value-type="string" table:number-columns-repeated="100000"><text:p>x</text:p></table:table-cell></table:table-row>`;
    const ods = await libreOfficeOds(LO_HEADER + repeated);
    const started = performance.now();
    const read = await table(ods);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(read.rows).toHaveLength(SHEET_LIMITS.maxRows - 1);
    expect(read.rows[0]!.cells).toHaveLength(SHEET_LIMITS.maxColumns);
    const rows = await readRows(read, { sessionYear: 2026, zip: null });
    expect(rows.fileProblem).toMatchObject({ code: 'too_many_rows' });
  });

  it('is refused as unreadable when its content is not XML, and a document that declares entities is not expanded', async () => {
    const broken = await zipOf([
      ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet', true],
      ['content.xml', '<office:document-content><table:table table:name="a"><table:table-row>'],
    ]);
    expect(await reason(broken)).toBe('file_unreadable');
    const laughs = await zipOf([
      ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet', true],
      [
        'content.xml',
        `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><d><table:table table:name="x"><table:table-row><table:table-cell><text:p>&b;</text:p></table:table-cell></table:table-row></table:table></d>`,
      ],
    ]);
    expect(await reason(laughs)).toBe('file_unreadable');
  });

  it('may be a flat ODS (.fods: the same XML, not zipped)', async () => {
    const fods = libreOfficeContent(LO_HEADER + loCandidate('20260000100003'))
      .replace('<office:document-content', '<office:document office:mimetype="application/vnd.oasis.opendocument.spreadsheet"')
      .replace('</office:document-content>', '</office:document>');
    const read = await table(Buffer.from(fods));
    expect(read).toMatchObject({ format: 'ods', sheet: 'Liste 2026' });
    expect(read.rows[0]!.cells[0]).toBe('20260000100003');
  });
});

describe('the sheet read', () => {
  const workbook = (bookType: 'ods' | 'xlsx') =>
    sheetJsWorkbook(
      [
        ['Instructions', [['Remplissez la feuille Liste']]],
        ['Liste', [HEADERS, candidate('20260000100001')]],
        ['Rattrapage', [HEADERS, candidate('20260000100009'), candidate('20260000100010')]],
      ],
      bookType,
    );

  it.each(['ods', 'xlsx'] as const)('is the one asked for when there are several (%s), and an unknown one is refused naming the sheets', async (bookType) => {
    const bytes = workbook(bookType);
    expect(await table(bytes)).toMatchObject({ sheet: 'Liste', sheets: ['Instructions', 'Liste', 'Rattrapage'] });
    const other = await table(bytes, 'Rattrapage');
    expect(other.sheet).toBe('Rattrapage');
    expect(other.rows.map((r) => r.cells[0])).toEqual(['20260000100009', '20260000100010']);
    // Case and accents do not matter.
    expect((await table(bytes, ' rattrapage ')).sheet).toBe('Rattrapage');
    await expect(table(bytes, 'Feuil3')).rejects.toMatchObject({ reason: 'sheet_unknown', params: { sheet: 'Feuil3', sheets: 'Instructions, Liste, Rattrapage' } });
  });

  it('is, without any sheet holding every required column, the one with most known columns, named with the others for the message', async () => {
    const bytes = sheetJsWorkbook(
      [
        ['Instructions', [['Lisez-moi']]],
        [
          'Candidats',
          [
            ['code_candidat', 'nom', 'prenom'],
            ['20260000100001', 'Kabongo', 'Marie'],
          ],
        ],
      ],
      'xlsx',
    );
    const read = await table(bytes);
    expect(read).toMatchObject({ sheet: 'Candidats', sheets: ['Instructions', 'Candidats'] });
    expect((await readRows(read, { sessionYear: 2026, zip: null })).fileProblem).toMatchObject({ code: 'missing_columns' });
  });

  it('is passed over when hidden while a visible sheet holds the list (LibreOffice’s hidden lookup sheet)', async () => {
    const ods = await libreOfficeOds(LO_HEADER + loCandidate('20260000100001'));
    expect((await table(ods)).sheet).toBe('Liste 2026');
  });
});

describe('lines under the list that are no candidate', () => {
  it('are left out and listed (a total, "TOTAL : 123", a signature, a repeated header), blank lines and columns skipped, no candidate lost', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Liste');
    // The list starts in column B, with an empty column between the names and the rest.
    const at = (values: unknown[]) => ['', ...values];
    sheet.addRow(at(HEADERS));
    sheet.addRow(at(candidate(20260000100001)));
    sheet.addRow([]);
    sheet.addRow(at(HEADERS));
    sheet.addRow(at(candidate('2026 0000 1000 02', 'Lukusa', 'Bénédicte')));
    // A candidate whose code was forgotten is kept (its names say it is one): its row gets the error.
    sheet.addRow(at(['', 'Tshibola', '', 'Esther', '01/02/2008']));
    // A code turned into scientific notation is a code: kept, its error explained.
    sheet.addRow(at(['2,02680E+13', '', '', '', '01/02/2008']));
    sheet.addRow(at(['Total', '', '', '', '', '', '', '', '', '', 4]));
    sheet.addRow(at(['TOTAL : 123']));
    sheet.addRow(at(['', 'Le Préfet des études']));
    sheet.addRow(at(['Fait à Kinshasa, le 12/06/2026']));
    const read = await table(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(read.rows.map((r) => r.row)).toEqual([2, 5, 6, 7]);
    expect(read.ignored).toEqual([
      { row: 4, text: HEADERS.join(' · ') },
      { row: 8, text: 'Total · 4' },
      { row: 9, text: 'TOTAL : 123' },
      { row: 10, text: 'Le Préfet des études' },
      { row: 11, text: 'Fait à Kinshasa, le 12/06/2026' },
    ]);
    const rows = await readRows(read, { sessionYear: 2026, zip: null });
    expect(rows.read.find((r) => r.row === 5)!.code).toBe('20260000100002');
    expect(rows.read.find((r) => r.row === 6)!.before).toContainEqual({ row: 6, column: 'code_candidat', code: 'code_required' });
    expect(rows.read.find((r) => r.row === 7)!.before).toContainEqual({ row: 7, column: 'code_candidat', code: 'code_scientific' });
  });

  it('are told by a stated rule: a code, a name, or three filled columns make a candidate', () => {
    const columns = new Map([
      ['code_candidat', 0],
      ['nom', 1],
      ['prenom', 2],
      ['sexe', 3],
      ['ecole', 4],
      ['pourcentage', 5],
    ] as const);
    const line = (...cells: string[]) => isCandidateLine(cells, columns, HEADER_HINTS);
    expect(line('20260000100001')).toBe(true);
    expect(line('2026-0000-1000', '', '')).toBe(true);
    expect(line('', 'Kabongo')).toBe(true);
    expect(line('', '', '', 'F', 'KIN-FUN-C1-E1', '72,5')).toBe(true);
    expect(line('Total', '', '', '', '', '312')).toBe(false);
    expect(line('', 'Sous-total classe A')).toBe(false);
    expect(line('', 'Signature et cachet')).toBe(false);
    expect(line('123', '', '', '', '', '')).toBe(false);
    expect(line('Page 2/3')).toBe(false);
    // Without a code or a name column nothing can be told: every line is kept.
    expect(isCandidateLine(['Total'], new Map([['sexe', 0]]), HEADER_HINTS)).toBe(true);
  });
});

describe('the CSV French LibreOffice writes', () => {
  it('has two-digit years, read with the stated pivot, and a total under the list', async () => {
    const lines = [
      HEADERS.join(';'),
      '20260000100001;Kabongo;;Marie;14/03/07;Kinshasa;F;LIT;KIN-FUN-C1-E1;KIN-FUN-C1;72,5',
      '20260000100002;Lukusa;;Paul;02/11/95;Kananga;M;LIT;KIN-FUN-C1-E1;KIN-FUN-C1;60',
      ';;;;;;;;;;',
      'Total;;;;;;;;;;2',
    ];
    const read = await table(Buffer.from(`${lines.join('\n')}\n`, 'latin1'));
    expect(read).toMatchObject({ format: 'csv', sheet: null, sheets: [], ignored: [{ row: 5, text: 'Total · 2' }] });
    const rows = await readRows(read, { sessionYear: 2026, zip: null });
    expect(rows.read.map((r) => r.values?.birthDate)).toEqual(['2007-03-14', '1995-11-02']);
  });
});

describe('a CSV’s separator', () => {
  it('is found on the headers’ line when a title line above holds none, or taken from Excel’s `sep=` line', async () => {
    const body = [HEADERS.join(';'), candidate('20260000100001').join(';')].join('\r\n');
    const titled = await table(Buffer.from(`Liste des candidats 2026\r\n${body}\r\n`));
    expect(titled.header.row).toBe(2);
    expect(titled.rows[0]!.cells).toHaveLength(HEADERS.length);
    expect(titled.rows[0]!.cells[10]).toBe('72,5');
    const stated = await table(Buffer.from(`sep=;\r\n${HEADERS.join(';')}\r\n${candidate('20260000100001').join(';')}\r\n`));
    expect(stated.header).toEqual({ row: 2, cells: HEADERS });
    expect(stated.rows[0]!.cells[10]).toBe('72,5');
  });
});

describe('headers as people type them', () => {
  it.each([
    ['Prénom(s)', 'prenom'],
    ['Né(e) le', 'ne_le'],
    ['Date de naissance (jj/mm/aaaa)', 'date_de_naissance'],
    ['%', 'pourcent'],
    ['Pourcentage (%)', 'pourcentage'],
    ['Pourcentage obtenu', 'pourcentage_obtenu'],
    ['Sexe (M/F)', 'sexe'],
    ['N° candidat', 'n_candidat'],
    ['Nº du candidat', 'n_du_candidat'],
    ['Code élève', 'code_eleve'],
    ['  LIEU DE NAISSANCE ', 'lieu_de_naissance'],
    ['(photo)', 'photo'],
  ])('%s reads as %s', (typed, normalised) => {
    expect(normaliseHeader(typed)).toBe(normalised);
    expect(HEADER_HINTS.has(normalised)).toBe(true);
  });

  it.each([
    ['French', ['N° candidat', 'Nom', 'Post-nom', 'Prénom(s)', 'Né(e) le', 'Lieu de naissance', 'Sexe (M/F)', 'Option', 'École', 'Centre', '%']],
    [
      'French, longer',
      ['Code élève', 'Nom', 'Postnom', 'Prénoms', 'Date de naissance (jj/mm/aaaa)', 'Né(e) à', 'Genre', 'Filière', 'Établissement', "Centre d'examen", 'Pourcentage obtenu'],
    ],
    ['English', ['Candidate number', 'Last name', 'Middle name', 'First name', 'Date of birth', 'Place of birth', 'Sex', 'Option', 'School', 'Exam centre', 'Percentage']],
  ])('a %s list is read whole', async (_, headers) => {
    const bytes = sheetJsWorkbook([['Sheet1', [headers, candidate('20260000100001')]]], 'xlsx');
    const rows = await readRows(await table(bytes), { sessionYear: 2026, zip: null });
    expect(rows.fileProblem).toBeNull();
    expect(rows.read[0]!.before).toEqual([]);
    expect(rows.read[0]!.values).toMatchObject({ lastName: 'Kabongo', middleName: 'wa Ilunga', firstName: 'Marie', birthDate: '2007-03-14', gender: 'F', percentageTenths: 725 });
  });
});

describe('an XLSX another program wrote', () => {
  it('keeps a long code that the cell holds exactly, even shown as 2,03E+13, and reads a date whose format was lost as a day number', async () => {
    const workbook = XLSX.utils.book_new();
    const sheet = XLSX.utils.aoa_to_sheet([HEADERS, [20260000100001, 'Kabongo', '', 'Marie', 39155, 'Kinshasa', 'F', 'LIT', 'KIN-FUN-C1-E1', 'KIN-FUN-C1', 72.5]]);
    sheet.A2!.z = '0.00E+00';
    XLSX.utils.book_append_sheet(workbook, sheet, 'Feuil1');
    const read = await table(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    expect(read.rows[0]!.cells.slice(0, 5)).toEqual(['20260000100001', 'Kabongo', '', 'Marie', '39155']);
    const rows = await readRows(read, { sessionYear: 2026, zip: null });
    expect(rows.read[0]!.values).toMatchObject({ birthDate: '2007-03-14' });
  });
});

describe('a file that is no list', () => {
  const png = () =>
    sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
  /** An OLE2 compound file's first bytes, then a directory naming its streams in UTF-16 (the way Office writes them). */
  const compound = (stream: string) => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504), Buffer.from(stream, 'utf16le')]);

  it.each<[string, () => Promise<Buffer> | Buffer, string]>([
    ['a PDF', () => Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'file_pdf'],
    ['a PNG', png, 'file_image'],
    [
      'a JPEG',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
          .jpeg()
          .toBuffer(),
      'file_image',
    ],
    ['an Excel 97 workbook', () => compound('Workbook'), 'file_xls'],
    ['a password-protected XLSX', () => compound('EncryptedPackage'), 'file_encrypted'],
    ['a Word 97 document', () => compound('WordDocument'), 'file_word'],
    [
      'a DOCX',
      () =>
        zipOf([
          ['[Content_Types].xml', '<Types/>'],
          ['word/document.xml', '<w:document/>'],
        ]),
      'file_word',
    ],
    [
      'an ODT',
      () =>
        zipOf([
          ['mimetype', 'application/vnd.oasis.opendocument.text', true],
          ['content.xml', '<office:document-content/>'],
        ]),
      'file_word',
    ],
    [
      'an XLSB',
      () =>
        zipOf([
          ['[Content_Types].xml', '<Types/>'],
          ['xl/workbook.bin', 'x'],
        ]),
      'file_xlsb',
    ],
    ['an Apple Numbers file', () => zipOf([['Index/Document.iwa', 'x']]), 'file_numbers'],
    ['the photos zip', async () => zipOf([['20260000100001.jpg', await png()]]), 'file_zip'],
    ['an HTML "xls" export', () => Buffer.from('<html><body><table><tr><td>code_candidat</td></tr></table></body></html>'), 'file_html'],
    ['an XML Spreadsheet 2003', () => Buffer.from('<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"></Workbook>'), 'file_xml_spreadsheet'],
    ['an RTF', () => Buffer.from('{\\rtf1\\ansi hello}'), 'file_word'],
    ['other bytes', () => Buffer.from([0x00, 0x01, 0x02, 0x03, 0x04]), 'file_type'],
  ])('%s is named, never "no candidate"', async (_, make, expected) => {
    expect(await reason(await make())).toBe(expected);
  });
});
