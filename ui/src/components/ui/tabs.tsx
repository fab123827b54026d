import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
}

interface TabsProps<Id extends string> {
  label: string;
  tabs: readonly TabItem<Id>[];
  active: Id;
  onChange: (id: Id) => void;
  children: ReactNode;
}

/** Keys of the WAI-ARIA tabs pattern: the arrows move between tabs, Home and End jump to the first and last. */
function nextIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowRight') return (current + 1) % count;
  if (key === 'ArrowLeft') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * Accessible tabs: one tablist, the active panel below it. Only the selected tab is in the Tab order (the arrows
 * move between tabs and select them), so a keyboard user reaches the panel with one Tab press.
 */
export function Tabs<Id extends string>({ label, tabs, active, onChange, children }: TabsProps<Id>) {
  const buttons = useRef(new Map<Id, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = nextIndex(event.key, tabs.findIndex((tab) => tab.id === active), tabs.length);
    if (index === null) return;
    event.preventDefault();
    const target = tabs[index].id;
    onChange(target);
    buttons.current.get(target)?.focus();
  }

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => { if (element) buttons.current.set(tab.id, element); else buttons.current.delete(tab.id); }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={tab.id === active}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            className="tabs__tab"
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} className="tabs__panel">
        {children}
      </div>
    </div>
  );
}
