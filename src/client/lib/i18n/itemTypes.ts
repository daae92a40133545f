import { ITEM_TYPE_LABELS, itemTypeLabel } from '@contract';
import { useT } from './catalogue';
import { commonMessages } from './namespaces/common';

type CommonKey = Parameters<ReturnType<typeof useT<keyof typeof commonMessages.english>>>[0];

/**
 * An item's type as the screens name it (decision 063): a built-in type in the screens' language,
 * a type the admin wrote as they wrote it.
 */
export function useItemTypeLabel(): (type: string) => string {
  const t = useT(commonMessages);
  return (type) => (Object.hasOwn(ITEM_TYPE_LABELS, type) ? t(`type.${type}` as CommonKey) : itemTypeLabel(type));
}
