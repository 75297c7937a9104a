// Reading an embedded file back out of a PDF (verification side). Uses pdf-lib's parser, which
// handles incremental updates and object streams, so a re-saved PDF still yields its credential.
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, decodePDFRawStream } from 'pdf-lib';

function nameTreeLookup(dict: PDFDict, key: string, depth = 0): PDFDict | null {
  if (depth > 16) return null;
  const names = dict.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (names) {
    for (let i = 0; i + 1 < names.size(); i += 2) {
      const entry = names.lookup(i);
      const text = entry instanceof PDFString || entry instanceof PDFHexString ? entry.decodeText() : null;
      if (text === key) return names.lookupMaybe(i + 1, PDFDict) ?? null;
    }
  }
  const kids = dict.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let i = 0; kids && i < kids.size(); i++) {
    const kid = kids.lookupMaybe(i, PDFDict);
    const found = kid ? nameTreeLookup(kid, key, depth + 1) : null;
    if (found) return found;
  }
  return null;
}

/** The bytes of the attached file `name`, or null if the PDF has none (or cannot be read). */
export async function extractAttachment(pdf: Uint8Array, name: string): Promise<Uint8Array | null> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  } catch {
    return null;
  }
  const names = document.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const spec = tree ? nameTreeLookup(tree, name) : null;
  const ef = spec?.lookupMaybe(PDFName.of('EF'), PDFDict);
  const stream = ef?.lookup(PDFName.of('UF')) ?? ef?.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return null;
  try {
    return decodePDFRawStream(stream).decode();
  } catch {
    return null;
  }
}
