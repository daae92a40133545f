/**
 * How an item's type reads to people (decision 063). An organization's package types are the
 * strings of its settings: the built-in ones are keys (`certified_mail`), which are never shown;
 * the ones an admin adds in Settings are written as people read them ("Fragile parcel") and are
 * their own label.
 */

/** The built-in types' labels: a noun each, so "Your … has arrived" reads as a sentence. */
export const ITEM_TYPE_LABELS: Readonly<Record<string, string>> = {
  package: 'Package',
  letter: 'Letter',
  certified_mail: 'Certified letter',
  express: 'Express package',
  fragile: 'Fragile package',
};

/** A key (lower case, digits, `_` or `-`, no space): not how a person writes a type. */
const KEY = /^[a-z0-9]+(?:[_-][a-z0-9]+)*$/;

/** Whether a stored value is a key ("extra_large") rather than words an admin wrote: keys are never shown as stored. */
export const isStoredKey = (value: string) => KEY.test(value);

/** "extra_large" -> "Extra large": a key humanised, for a key no label is known for. */
export function humanizeKey(key: string): string {
  const words = key.split(/[_-]+/).filter(Boolean).join(' ');
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

/**
 * The type as a label, capitalised ("Certified letter", "Fragile parcel"): the built-in label, else
 * a key humanised, else the type as the admin wrote it.
 */
export function itemTypeLabel(type: string): string {
  const known = ITEM_TYPE_LABELS[type];
  if (known) return known;
  if (KEY.test(type)) return humanizeKey(type);
  return type;
}

/**
 * The type as a noun inside a sentence ("Your fragile parcel was picked up"): the label with its
 * first word lower-cased, unless that word is a name or an acronym ("DHL box", "FedEx envelope").
 */
export function itemTypeNoun(type: string): string {
  const label = itemTypeLabel(type);
  return label.replace(/^[A-Z][a-z]*(?=\s|$)/, (first) => first.toLowerCase());
}

/** "a package", "an express package". */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
