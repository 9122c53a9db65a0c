// Font weight: how heavy a font is, from what the font says about itself, and whether a line's
// font is heavier than the body text's.
//
// A heading is often set in a face that is only a little heavier than the body — "Medium",
// "Semibold", "Demi" — and its name need not say "Bold": URW's Times is "NimbusRomNo9L-Medi",
// Franklin Gothic's demi is "-Dm", TeX's bold is "CMBX10". So the weight comes, in this order,
// from the font descriptor's /FontWeight (100–900, when the PDF gives one), the style words of
// the font's name (a vocabulary of weights and their abbreviations), the descriptor's ForceBold
// flag, and last the descriptor's stem width (/StemV) against the body font's: a face with
// much wider stems than the body's is a bold face whatever its name. A line is bold when its
// font is heavier than the body font (the font carrying most of the document's characters):
// a document set in Medium has no bold Medium lines.

/** What a PDF's font descriptor says about weight (absent fields: not given). */
export interface FontDescriptorInfo {
  flags?: number;
  fontWeight?: number;
  stemV?: number;
}

/** The descriptor flag that asks renderers to embolden (PDF 32000-1, table 123: bit 19). */
const FORCE_BOLD = 1 << 18;

// Style words and abbreviations, lower case, to a CSS weight. "Semi"/"Demi"/"Extra"/"Ultra"
// combine with a following "Bold" or "Light".
const WORDS: Record<string, number> = {
  thin: 100, hairline: 100, extralight: 200, ultralight: 200, xlight: 200, light: 300, lt: 300, lite: 300, semilight: 350,
  book: 400, bk: 400, regular: 400, regu: 400, reg: 400, roman: 400, rom: 400, normal: 400, plain: 400,
  medium: 500, medi: 500, med: 500, md: 500, mdm: 500,
  semibold: 600, semibd: 600, sembd: 600, sb: 600, sbd: 600, demibold: 600, demi: 600, dm: 600, dmbd: 600, demibd: 600,
  bold: 700, bd: 700, bol: 700, bld: 700,
  extrabold: 800, ultrabold: 800, xbold: 800, xbd: 800, heavy: 800, hv: 800, hvy: 800,
  black: 900, blk: 900, ultra: 900, fat: 900,
};
const PREFIXES: Record<string, [bold: number, light: number]> = { semi: [600, 350], demi: [600, 350], extra: [800, 200], ultra: [800, 200] };

/** The name without its subset tag ("ABCDEE+") and encoding suffix ("-Identity-H"). */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '').replace(/-Identity-[HV]$/, '');
}

/**
 * The weight a font's name states (100–900), or null when it states none. Only the style part
 * (after the last "-" or ",") is read when there is one, so a family word ("LT" in
 * "HelveticaLTStd") is not taken for a weight; the last weight word wins ("ExtraCondensedBold").
 */
export function nameWeight(fontName: string): number | null {
  const name = baseFontName(fontName);
  // TeX's Computer Modern and its descendants name bold faces by "bx"/"b" after the family code
  if (/^(cm|ec|tc|sf|lm)(ss|tt|r)?(bx|b)(?!\p{L})|^(cm|sf)(ss)?bx/iu.test(name)) return 700;
  const cut = Math.max(name.lastIndexOf('-'), name.lastIndexOf(','));
  const style = cut >= 0 ? name.slice(cut + 1) : name;
  if (cut >= 0 && /^b$/i.test(style)) return 700; // "Arial,B", "HGGothic-B"
  // camelCase and digits split words: "DmIt" -> dm it, "SemiboldItalic" -> semibold italic
  const words = style.split(/(?<=\p{Ll})(?=\p{Lu})|[^\p{L}]+/u).filter(Boolean).map((w) => w.toLowerCase());
  let weight: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const pre = PREFIXES[w];
    const next = words[i + 1];
    if (pre && (next === 'bold' || next === 'bd')) {
      weight = pre[0];
      i++;
    } else if (pre && (next === 'light' || next === 'lt')) {
      weight = pre[1];
      i++;
    } else if (w in WORDS && !(w === 'ultra' && next === 'condensed')) {
      weight = WORDS[w];
    }
  }
  return weight;
}

/**
 * A font's weight (100–900): the descriptor's /FontWeight, else its name's, else 700 for
 * ForceBold, else from its stems against the body font's (`bodyStemV`), else 400.
 */
export function fontWeight(fontName: string, desc?: FontDescriptorInfo, bodyStemV?: number): number {
  const w = desc?.fontWeight;
  if (w && w >= 100 && w <= 900) return w;
  const named = nameWeight(fontName);
  if (named !== null) return named;
  if (desc?.flags !== undefined && desc.flags & FORCE_BOLD) return 700;
  // Stems a third wider than the body's: a bold face (regular stems ~80–90, bold ~130–170 units).
  if (desc?.stemV && bodyStemV && desc.stemV >= 1.35 * bodyStemV) return 700;
  return 400;
}

/**
 * For each font (by index), whether it is heavier than the body font, the font carrying most
 * characters (`chars[i]`). Fonts of unknown weight compare as regular.
 */
export function heavierThanBody(fonts: { name: string; desc?: FontDescriptorInfo }[], chars: number[]): { weights: number[]; bold: boolean[] } {
  let body = -1;
  chars.forEach((n, i) => {
    if (n > 0 && (body < 0 || n > chars[body])) body = i;
  });
  const bodyStemV = body >= 0 ? fonts[body]?.desc?.stemV : undefined;
  const weights = fonts.map((f) => fontWeight(f.name, f.desc, bodyStemV));
  const bodyWeight = body >= 0 ? weights[body] : 400;
  // A face at least a step heavier (Medium over Regular, Bold over Medium) and at least Medium.
  const bold = weights.map((w) => w >= 500 && w >= bodyWeight + 100);
  return { weights, bold };
}
