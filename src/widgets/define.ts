import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';
import { WIDGET_EVENTS, type WidgetProps } from './shared';

type AttributeType = 'string' | 'number';

/** Attributes every element takes, as typed props (`api-base` -> `apiBase`); changing one re-renders. */
const COMMON_PROPS = { apiBase: 'string', locale: 'string', theme: 'string', colors: 'string', token: 'string', refresh: 'number', dashboardUrl: 'string' } as const;

// r2wc keeps its props and its render step under these registered symbols.
const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');
const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Defines `name` with @r2wc/react-to-web-component: `Component` renders in an
 * open shadow root (its own styles; the page's CSS neither leaks in nor out),
 * attributes become typed props, and the `qt-*` events are r2wc event props
 * that bubble out of the shadow root. Defining twice is a no-op, so two
 * copies of the bundle on a page coexist.
 */
export const defineWidget = <P extends WidgetProps>(name: string, Component: ComponentType<P>, extraProps: Record<string, AttributeType> = {}) => {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  const Base = r2wc(Component, { shadow: 'open', props: { ...COMMON_PROPS, ...extraProps } as never, events: WIDGET_EVENTS as never });

  /** r2wc leaves a prop as it was when its attribute is removed; a removed attribute falls back to the default instead (a partner removing `token` logs the widget out). */
  class WidgetElement extends (Base as unknown as { new (): HTMLElement & { attributeChangedCallback(name: string, old: string | null, value: string | null): void } }) {
    override attributeChangedCallback(attribute: string, old: string | null, value: string | null) {
      if (value !== null) return super.attributeChangedCallback(attribute, old, value);
      const self = this as unknown as Record<symbol, unknown>;
      delete (self[PROPS] as Record<string, unknown>)[camel(attribute)];
      (self[RENDER] as () => void).call(this);
    }
  }

  customElements.define(name, WidgetElement);
};
