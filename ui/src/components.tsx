import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import { hrefOf, navigations, onLinkClick } from './router';
import { describeError } from './session';

/** An in-app link: a real anchor (keyboard, middle click, copy link) that navigates without a reload. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  return (
    <a href={hrefOf(props.to)} class={props.class} aria-current={props['aria-current']} onClick={(event) => onLinkClick(event, props.to)}>
      {props.children}
    </a>
  );
}

/**
 * The page's title. After an in-app navigation it takes focus, so a keyboard or screen-reader
 * user starts at the top of the new page, as after a full page load (on a full load the
 * browser's own order applies: the skip link first).
 */
export function PageTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (navigations > 0) ref.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {props.children}
    </h1>
  );
}

export function ErrorBox(props: { error: unknown; testId?: string }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert" data-testid={props.testId}>
      {typeof props.error === 'string' ? props.error : describeError(props.error)}
    </p>
  );
}

export function Notice(props: { children: ComponentChildren }) {
  return <p class="notice">{props.children}</p>;
}

/** A labelled input; `hint` is tied to it with aria-describedby. */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'password' | 'number' | 'datetime-local' | 'search';
  hint?: string;
  required?: boolean;
  list?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  step?: string;
  min?: string;
  max?: string;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.id}
        // Preact types <input> as one union member per `type`; this field takes several.
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        list={props.list}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? 'off'}
        spellcheck={false}
        inputMode={props.inputMode}
        step={props.step}
        min={props.min}
        max={props.max}
        aria-describedby={hintId}
        onInput={(event) => props.onInput((event.currentTarget as HTMLInputElement).value)}
      />
      {props.hint ? (
        <small id={hintId} class="hint">
          {props.hint}
        </small>
      ) : null}
    </div>
  );
}

export function Select(props: { id: string; label: string; value: string; options: readonly string[]; onChange: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.id}
        value={props.value}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option === '' ? '(any)' : option}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Wide tables scroll sideways inside their own box on a phone instead of stretching the page;
 * `cards` tables instead show each row as a card there (cells need a `data-label`).
 */
export function TableBox(props: { label: string; children: ComponentChildren; cards?: boolean }) {
  return (
    <div class="table-box" role="region" aria-label={props.label} tabIndex={0}>
      <table class={props.cards ? 'cards' : undefined}>{props.children}</table>
    </div>
  );
}

export function Json(props: { value: unknown }) {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

export const when = (iso: string | null | undefined): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');

export type Load<T> =
  { state: 'idle' } | { state: 'loading' } | { state: 'done'; value: T; ms: number } | { state: 'failed'; error: unknown };

/**
 * Runs `work` whenever `deps` change (and on `reload()`); a result that arrives after a newer
 * run started is dropped. The time each run took is kept for the page (and the browser test).
 */
export function useLoad<T>(work: (() => Promise<T>) | null, deps: readonly unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'idle' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!work) {
      setLoad({ state: 'idle' });
      return;
    }
    let current = true;
    const started = performance.now();
    setLoad({ state: 'loading' });
    work().then(
      (value) => current && setLoad({ state: 'done', value, ms: performance.now() - started }),
      (error: unknown) => current && setLoad({ state: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);
  return [load, () => setTick((n) => n + 1)];
}

export function Loading(props: { load: Load<unknown>; label: string }) {
  if (props.load.state === 'loading')
    return (
      <p class="muted" role="status">
        Loading {props.label}…
      </p>
    );
  if (props.load.state === 'failed') return <ErrorBox error={props.load.error} />;
  return null;
}
