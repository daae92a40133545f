import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabListClass, tabPanelClass, tabTriggerClass } from '@/components/ui/tab-styles';

interface AuthTabsProps<Tab extends string> {
  /** The tabs in order, with their labels. */
  tabs: readonly { value: Tab; label: string }[];
  value: Tab;
  onChange: (tab: Tab) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}

/**
 * The Login / Register tabs of /auth, after the WAI-ARIA tabs pattern: arrow keys, Home and End
 * move between the tabs and select them, Tab goes on to the panel. Written here rather than
 * taken from Radix (components/ui/tabs), whose 10 KB would put the sign-in page over its 100 KB
 * budget (decision 024); it looks the same (components/ui/tab-styles).
 */
export function AuthTabs<Tab extends string>({ tabs, value, onChange, children }: AuthTabsProps<Tab>) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (tab: Tab) => `${id}-tab-${tab}`;
  const panelId = `${id}-panel`;

  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((tab) => tab.value === value);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    onChange(next.value);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(next.value))}`)?.focus();
  };

  return (
    <>
      <div
        ref={list}
        role="tablist"
        aria-orientation="horizontal"
        className={`${tabListClass} mb-6 grid w-full grid-cols-2`}
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => {
          const selected = tab.value === value;
          return (
            <button
              key={tab.value}
              id={tabId(tab.value)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              data-state={selected ? 'active' : 'inactive'}
              tabIndex={selected ? 0 : -1}
              className={tabTriggerClass}
              onClick={() => onChange(tab.value)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(value)} tabIndex={0} className={tabPanelClass}>
        {children}
      </div>
    </>
  );
}
