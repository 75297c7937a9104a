import yauzl from 'yauzl';

/**
 * What an uploaded list is, told by its bytes (never its name): a list the reader takes, or what
 * else it is, so that the answer can say it ("this is a PDF", "a Word document") instead of
 * "the file holds no candidate".
 */
export type ListKind = 'csv' | 'xlsx' | 'ods' | 'fods';
export type OtherKind =
  /** Excel 97–2003 (.xls), WPS's .et */
  | 'xls'
  /** Excel's binary workbook (.xlsb) */
  | 'xlsb'
  /** A workbook protected by a password (Office encrypts it into a compound file). */
  | 'encrypted'
  | 'pdf'
  | 'image'
  /** Word, Writer, WordPad: .doc, .docx, .odt, .rtf */
  | 'word'
  /** PowerPoint, Impress: .ppt(x), .odp */
  | 'presentation'
  /** Apple Numbers, Pages or Keynote */
  | 'numbers'
  /** A zip that is no workbook (often the photos zip chosen as the list). */
  | 'zip'
  /** A web page (some programs export "Excel" lists as HTML tables). */
  | 'html'
  /** Excel's XML Spreadsheet 2003. */
  | 'xml_spreadsheet'
  /** Any other binary. */
  | 'binary';

const startsWith = (buffer: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buffer[offset + i] === b);
const ascii = (buffer: Buffer, start: number, end: number) => buffer.subarray(start, end).toString('latin1');

/** The kind of a file that is not a zip: by its first bytes, then by the names a compound file's directory holds. */
export function kindOfBytes(buffer: Buffer): OtherKind | 'zip-container' | 'text' {
  if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04]) || startsWith(buffer, [0x50, 0x4b, 0x05, 0x06])) return 'zip-container';
  if (startsWith(buffer, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return compoundKind(buffer);
  if (ascii(buffer, 0, 5) === '%PDF-') return 'pdf';
  if (startsWith(buffer, [0xff, 0xd8, 0xff]) || startsWith(buffer, [0x89, 0x50, 0x4e, 0x47]) || ascii(buffer, 0, 4) === 'GIF8') return 'image';
  if (ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'WEBP') return 'image';
  if (ascii(buffer, 4, 8) === 'ftyp') return 'image'; // HEIC, AVIF (and MP4: refused all the same)
  if (startsWith(buffer, [0x49, 0x49, 0x2a, 0x00]) || startsWith(buffer, [0x4d, 0x4d, 0x00, 0x2a]) || ascii(buffer, 0, 2) === 'BM') return 'image';
  if (ascii(buffer, 0, 5) === '{\\rtf') return 'word';
  return 'text';
}

/**
 * A compound file (OLE2) is an old Office document: its directory names its streams in UTF-16.
 * `Workbook`/`Book` is Excel's, `WordDocument` Word's, `PowerPoint Document` PowerPoint's and
 * `EncryptedPackage` an XLSX (or DOCX) saved with a password.
 */
function compoundKind(buffer: Buffer): OtherKind {
  const has = (name: string) => buffer.includes(Buffer.from(name, 'utf16le'));
  if (has('EncryptedPackage')) return 'encrypted';
  if (has('WordDocument')) return 'word';
  if (has('PowerPoint Document')) return 'presentation';
  return 'xls';
}

/** A text file that is no CSV: a web page, an XML spreadsheet, or a flat ODS (one XML file, which is read). */
export function kindOfText(text: string): 'csv' | 'fods' | 'html' | 'xml_spreadsheet' | 'binary' {
  const head = text.slice(0, 4096).trimStart().toLowerCase();
  if (!head.startsWith('<')) return 'csv';
  if (head.includes('urn:schemas-microsoft-com:office:spreadsheet')) return 'xml_spreadsheet';
  if (/<office:document[\s>]/.test(head) && head.includes('opendocument.spreadsheet')) return 'fods';
  if (/<(!doctype html|html|table|body|head|meta)[\s>]/.test(head)) return 'html';
  if (head.startsWith('<?xml')) return 'binary';
  return 'csv';
}

/** A zip's entry names and its `mimetype` (an OpenDocument file's first entry), directory only: nothing else is inflated. */
export async function kindOfZip(buffer: Buffer): Promise<ListKind | OtherKind | 'unreadable'> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
  } catch {
    return 'unreadable';
  }
  try {
    const names = new Set<string>();
    let mimetype = '';
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        names.add(entry.fileName);
        // The OpenDocument mimetype is stored (not deflated) and tiny: read it, anything else is skipped.
        if (entry.fileName === 'mimetype' && entry.uncompressedSize < 200 && entry.compressionMethod === 0) {
          zip.openReadStream(entry, (error, stream) => {
            if (error) return reject(error);
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('end', () => {
              mimetype = Buffer.concat(chunks).toString('latin1').trim();
              zip.readEntry();
            });
            stream.on('error', reject);
          });
        } else zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
    if (mimetype === 'application/vnd.oasis.opendocument.spreadsheet' || mimetype === 'application/vnd.oasis.opendocument.spreadsheet-template') return 'ods';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.text')) return 'word';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.presentation')) return 'presentation';
    if (names.has('xl/workbook.bin')) return 'xlsb';
    if ([...names].some((n) => n.startsWith('xl/'))) return 'xlsx';
    if (names.has('word/document.xml')) return 'word';
    if ([...names].some((n) => n.startsWith('ppt/'))) return 'presentation';
    if (names.has('Index/Document.iwa') || [...names].some((n) => n.endsWith('.iwa'))) return 'numbers';
    if (names.has('content.xml') && names.has('mimetype')) return 'binary';
    return 'zip';
  } catch {
    return 'unreadable';
  } finally {
    zip.close();
  }
}
