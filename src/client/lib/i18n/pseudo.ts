import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * The pseudo-locale (en-XA): every English message accented and made 40 % longer, in brackets, so
 * that the browser check can draw the screens at 390 px and find where a longer language (German,
 * Spanish) would overflow or clip, and any text that did not come from a catalogue (it stays
 * plain). Only the literal text changes: placeholders, plurals and tags keep working.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'áƀçđéƒĝĥíĵķĺɱñóþǫŕšťúṽŵẋýžÁßÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŤÚṼŴẊÝŽ'][i]!,
  ]),
);

const accent = (text: string) => [...text].map((c) => ACCENTED[c] ?? c).join('');

function literalLength(elements: MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === 0) length += element.value.length;
    else if (element.type === 8) length += literalLength(element.children);
    else if (element.type === 5 || element.type === 6) {
      const first = Object.values(element.options)[0];
      if (first) length += literalLength(first.value);
    } else length += 6; // a placeholder's value: a name, a number
  }
  return length;
}

function accentAll(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === 0) return { ...element, value: accent(element.value) };
    if (element.type === 8) return { ...element, children: accentAll(element.children) };
    if (element.type === 5 || element.type === 6) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentAll(option.value) }]),
      );
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}

/** One message in the pseudo-locale: a parsed message (the build's) or a plain string without placeholders. */
export function pseudoMessage(message: string | MessageFormatElement[]): string | MessageFormatElement[] {
  if (typeof message === 'string') {
    if (message.includes('{') || message.includes('<')) return message;
    const pad = Math.max(1, Math.ceil(message.length * 0.4) - 3);
    return `[${accent(message)} ${'·'.repeat(pad)}]`;
  }
  const pad = Math.max(1, Math.ceil(literalLength(message) * 0.4) - 3);
  const literal = (value: string) => ({ type: 0, value }) as MessageFormatElement;
  return [literal('['), ...accentAll(message), literal(` ${'·'.repeat(pad)}]`)];
}
