// A tiny PDF writer for tests: pages of Helvetica text lines and an optional outline
// (bookmarks, nested, with explicit or named destinations). Written by hand so the tests know
// exactly what each page says and where each bookmark points. A line is a string (Helvetica
// 12 pt, one below the other) or a StyledLine (size, bold, left edge; placed below the previous
// line with a gap of 1.4 times its size, or at an explicit baseline), in Helvetica or a named
// font with an optional descriptor (weight tests).
import zlib from 'node:zlib';

/** A line with a style, for heading detection tests. */
export interface StyledLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  /** Helvetica-Bold instead of Helvetica. */
  bold?: boolean;
  /** Another font, by its /BaseFont name ("ABCDEE+NimbusRomNo9L-Medi"); not embedded. */
  font?: string;
  /** Left edge (default 72). */
  x?: number;
  /** Baseline from the page bottom; default: below the previous line. */
  y?: number;
  /**
   * The line as style runs on one baseline (a bold run-in head, then regular text), each in
   * Helvetica or Helvetica-Bold; `text` is then ignored.
   */
  runs?: { text: string; bold?: boolean }[];
}

export interface Bookmark {
  title: string;
  /** 1-based page; null makes a bookmark without a destination. */
  page: number | null;
  /** Point at the page through a named destination instead of an explicit one. */
  named?: boolean;
  children?: Bookmark[];
}

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');

/** What a font's descriptor says (written as a /FontDescriptor of that font). */
export interface FontDescriptorSpec {
  flags?: number;
  fontWeight?: number;
  stemV?: number;
}

export interface PdfOptions {
  /** Descriptors for fonts named by `StyledLine.font`. */
  descriptors?: Record<string, FontDescriptorSpec>;
  /** Give every page its own font objects (as some producers do: one loaded font per page). */
  fontsPerPage?: boolean;
  /**
   * Compress the page content streams (/FlateDecode); `no-checksum` drops the zlib stream's
   * Adler-32 trailer, which zlib rejects and pdf.js's own decoder does without.
   */
  flate?: 'ok' | 'no-checksum';
  /** Raw drawing operators per page (0-based index), drawn before the text: paths ("72 600 100 40 re S"). */
  drawings?: Record<number, string>;
  /** Images per page (0-based index), as [x, y, width, height]: a small grey image drawn there. */
  images?: Record<number, [number, number, number, number][]>;
}

/** `pages[i]` is the lines of page i + 1. */
export function makePdf(pages: (string | StyledLine)[][], outline?: Bookmark[], opts: PdfOptions = {}): Buffer {
  const objs: string[] = []; // objs[k] is object k + 1
  const reserve = () => objs.push('') ;
  const set = (num: number, body: string) => {
    objs[num - 1] = body;
  };
  const catalog = reserve();
  const pagesRoot = reserve();
  const font = reserve();
  set(font, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = reserve();
  set(bold, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  // Fonts beyond Helvetica and Helvetica-Bold, one object per name (and page, with fontsPerPage).
  const extra = new Map<string, { res: string; num: number }>();
  const fontRef = (name: string, page: number): string => {
    if (!opts.fontsPerPage && name === 'Helvetica') return 'F1';
    if (!opts.fontsPerPage && name === 'Helvetica-Bold') return 'F2';
    const key = opts.fontsPerPage ? `${name}@${page}` : name;
    let f = extra.get(key);
    if (!f) {
      const num = reserve();
      const d = opts.descriptors?.[name];
      let descRef = '';
      if (d) {
        const desc = reserve();
        const fields = [d.flags !== undefined ? `/Flags ${d.flags}` : '/Flags 32', d.fontWeight !== undefined ? `/FontWeight ${d.fontWeight}` : '', d.stemV !== undefined ? `/StemV ${d.stemV}` : ''].filter(Boolean).join(' ');
        set(desc, `<< /Type /FontDescriptor /FontName /${name} ${fields} /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 718 /Descent -207 /CapHeight 718 >>`);
        descRef = ` /FontDescriptor ${desc} 0 R`;
      }
      set(num, `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding${descRef} >>`);
      f = { res: `F${extra.size + 3}`, num };
      extra.set(key, f);
    }
    return f.res;
  };
  const pageNums: number[] = [];
  let image: number | undefined;
  for (const [pageIndex, lines] of pages.entries()) {
    const used = new Set<string>();
    const content = reserve();
    const page = reserve();
    pageNums.push(page);
    let stream: string;
    if (lines.every((l) => typeof l === 'string')) {
      const ops = lines.map((l, i) => `${i === 0 ? '72 720 Td' : '0 -16 Td'} (${esc(l as string)}) Tj`).join('\n');
      stream = `BT /${fontRef('Helvetica', pageIndex)} 12 Tf\n${ops}\nET`;
    } else {
      let y = 740;
      const ops = lines.map((raw) => {
        const l: StyledLine = typeof raw === 'string' ? { text: raw } : raw;
        const size = l.size ?? 11;
        y = l.y ?? y - 1.4 * size;
        if (l.runs) {
          const shown = l.runs.map((r) => `/${fontRef(r.bold ? 'Helvetica-Bold' : 'Helvetica', pageIndex)} ${size} Tf (${esc(r.text)}) Tj`).join(' ');
          return `BT 1 0 0 1 ${l.x ?? 72} ${y.toFixed(2)} Tm ${shown} ET`;
        }
        return `BT /${fontRef(l.font ?? (l.bold ? 'Helvetica-Bold' : 'Helvetica'), pageIndex)} ${size} Tf 1 0 0 1 ${l.x ?? 72} ${y.toFixed(2)} Tm (${esc(l.text)}) Tj ET`;
      });
      stream = ops.join('\n');
    }
    const images = opts.images?.[pageIndex] ?? [];
    const drawn = [opts.drawings?.[pageIndex] ?? '', ...images.map(([x, y, w, h]) => `q ${w} 0 0 ${h} ${x} ${y} cm /Im1 Do Q`)].filter(Boolean).join('\n');
    if (drawn) stream = `${drawn}\n${stream}`;
    let filter = '';
    if (opts.flate) {
      const packed = zlib.deflateSync(Buffer.from(stream, 'latin1'));
      stream = (opts.flate === 'ok' ? packed : packed.subarray(0, packed.length - 4)).toString('latin1');
      filter = ' /Filter /FlateDecode';
    }
    set(content, `<< /Length ${Buffer.byteLength(stream, 'latin1')}${filter} >>\nstream\n${stream}\nendstream`);
    for (const [key, f] of extra) if (!opts.fontsPerPage || key.endsWith(`@${pageIndex}`)) used.add(`/${f.res} ${f.num} 0 R`);
    let xobjects = '';
    if (images.length) {
      image ??= reserve();
      set(image, `<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\xa0\xc0\xe0\nendstream`);
      xobjects = ` /XObject << /Im1 ${image} 0 R >>`;
    }
    set(page, `<< /Type /Page /Parent ${pagesRoot} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R ${[...used].join(' ')} >>${xobjects} >> /Contents ${content} 0 R >>`);
  }
  set(pagesRoot, `<< /Type /Pages /Kids [${pageNums.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageNums.length} >>`);

  const names: string[] = [];
  let outlinesRef = '';
  if (outline?.length) {
    const root = reserve();
    const count = (list: Bookmark[]): number => list.reduce((n, b) => n + 1 + count(b.children ?? []), 0);
    const write = (list: Bookmark[], parent: number): number[] => {
      const nums = list.map(() => reserve());
      list.forEach((b, i) => {
        const kids = b.children?.length ? write(b.children, nums[i]) : [];
        let dest = '';
        if (b.page !== null) {
          const explicit = `[${pageNums[b.page - 1]} 0 R /Fit]`;
          if (b.named) {
            const name = `dest${names.length + 1}`;
            names.push(`(${name}) ${explicit}`);
            dest = ` /Dest (${name})`;
          } else dest = ` /Dest ${explicit}`;
        }
        const links = [
          `/Parent ${parent} 0 R`,
          i > 0 ? `/Prev ${nums[i - 1]} 0 R` : '',
          i < list.length - 1 ? `/Next ${nums[i + 1]} 0 R` : '',
          kids.length ? `/First ${kids[0]} 0 R /Last ${kids[kids.length - 1]} 0 R /Count ${count(b.children!)}` : '',
        ].filter(Boolean);
        set(nums[i], `<< /Title (${esc(b.title)})${dest} ${links.join(' ')} >>`);
      });
      return nums;
    };
    const top = write(outline, root);
    set(root, `<< /Type /Outlines /First ${top[0]} 0 R /Last ${top[top.length - 1]} 0 R /Count ${count(outline)} >>`);
    outlinesRef = ` /Outlines ${root} 0 R /PageMode /UseOutlines`;
  }
  const namesRef = names.length ? ` /Names << /Dests << /Names [${names.join(' ')}] >> >>` : '';
  set(catalog, `<< /Type /Catalog /Pages ${pagesRoot} 0 R${outlinesRef}${namesRef} >>`);

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
