import { createElement, type ComponentType } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { WidgetProps } from './shared';

/** Attributes every element observes; changing one re-renders. */
export const COMMON_ATTRIBUTES = ['api-base', 'locale', 'theme', 'token', 'refresh', 'dashboard-url'] as const;

const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Defines `name` as a custom element rendering `Component` in an open shadow
 * root (its own styles; the page's CSS neither leaks in nor out). Attributes
 * become camelCase props; `qt-*` events bubble out of the shadow root.
 * Defining twice is a no-op, so two copies of the bundle on a page coexist.
 */
export const defineWidget = <P extends WidgetProps>(name: string, Component: ComponentType<P>, extraAttributes: readonly string[] = []) => {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  const attributes = [...COMMON_ATTRIBUTES, ...extraAttributes];

  class WidgetElement extends HTMLElement {
    static get observedAttributes() {
      return attributes;
    }

    private root: Root | null = null;

    connectedCallback() {
      if (!this.root) this.root = createRoot(this.shadowRoot ?? this.attachShadow({ mode: 'open' }));
      this.update();
    }

    disconnectedCallback() {
      // A move (remove then insert) keeps the root; a real removal unmounts it.
      queueMicrotask(() => {
        if (!this.isConnected && this.root) {
          this.root.unmount();
          this.root = null;
        }
      });
    }

    attributeChangedCallback() {
      if (this.root) this.update();
    }

    private update() {
      const props: Record<string, unknown> = {
        onEvent: (type: string, detail?: unknown) =>
          this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true })),
      };
      for (const attribute of attributes) {
        const value = this.getAttribute(attribute);
        if (value !== null) props[camel(attribute)] = value;
      }
      this.root?.render(createElement(Component, props as unknown as P));
    }
  }

  customElements.define(name, WidgetElement);
};
