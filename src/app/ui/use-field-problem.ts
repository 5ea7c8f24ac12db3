// A form's one problem at a time: the message shows under its field (or above the form when it names no
// field), and the field takes the focus so keyboard and screen-reader users land on what to fix.
import { useRef, useState } from 'react';

export interface FieldProblem<F extends string> {
  field: F | null;
  message: string;
}

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export function useFieldProblem<F extends string>() {
  const [problem, setProblem] = useState<FieldProblem<F> | null>(null);
  const refs = useRef<Partial<Record<F, FieldElement | null>>>({});
  return {
    problem,
    /** Clears the problem (e.g. on a new submit or when the form resets). */
    clear: () => setProblem(null),
    /** The message for `field`, or null. */
    err: (field: F) => (problem?.field === field ? problem.message : null),
    /** A ref callback registering `field`'s element, so `show` can focus it. */
    reg: (field: F) => (el: FieldElement | null) => {
      refs.current[field] = el;
    },
    show: (p: FieldProblem<F>) => {
      setProblem(p);
      if (p.field) refs.current[p.field]?.focus();
    },
  };
}
