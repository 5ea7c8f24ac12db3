// A form's one problem at a time: the message shows under its field (or above the form when it names no
// field), and the field takes the focus so keyboard and screen-reader users land on what to fix.
import { useCallback, useRef, useState } from 'react';

export interface FieldProblem<F extends string> {
  field: F | null;
  message: string;
}

/** Anything a form focuses: inputs, selects, text areas, a file picker's button. */
type FieldElement = { focus(): void };

/**
 * Each field's element by name, registered through its ref, so a form can focus the field a problem
 * names: `inputRef={reg('rfc')}` (or selectRef, textareaRef) and later `focus('rfc')`.
 */
export function useFieldRefs<F extends string, E extends FieldElement = FieldElement>() {
  const refs = useRef<Partial<Record<F, E | null>>>({});
  // Stable, so the ref callbacks it hands out read the registry only when React calls them.
  const reg = useCallback(
    (field: F) => (el: E | null) => {
      refs.current[field] = el;
    },
    [],
  );
  const focus = useCallback((field: F) => refs.current[field]?.focus(), []);
  /** The element registered for `field`, for a check outside render (an event handler). */
  const element = useCallback((field: F) => refs.current[field] ?? null, []);
  return { reg, focus, element };
}

export function useFieldProblem<F extends string>() {
  const [problem, setProblem] = useState<FieldProblem<F> | null>(null);
  const { reg, focus } = useFieldRefs<F>();
  return {
    problem,
    /** Clears the problem (e.g. on a new submit or when the form resets). */
    clear: () => setProblem(null),
    /** The message for `field`, or null. */
    err: (field: F) => (problem?.field === field ? problem.message : null),
    /** A ref callback registering `field`'s element, so `show` can focus it. */
    reg,
    show: (p: FieldProblem<F>) => {
      setProblem(p);
      if (p.field) focus(p.field);
    },
  };
}
