// Buttons: visible text, 44 px targets, a spinner only while their own action runs.
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export function buttonClass(variant: ButtonVariant = 'secondary', extra?: { block?: boolean; icon?: boolean }): string {
  return ['btn', `btn--${variant}`, extra?.block ? 'btn--block' : '', extra?.icon ? 'btn--icon' : '']
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  block?: boolean;
  icon?: boolean;
  loading?: boolean;
  children: ReactNode;
}

export function Button({ variant = 'secondary', block, icon, loading, disabled, className, children, type, ...rest }: ButtonProps) {
  const cls = buttonClass(variant, { block: !!block, icon: !!icon });
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={className ? `${cls} ${className}` : cls}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role={label ? 'status' : undefined} aria-label={label} aria-hidden={label ? undefined : true} />;
}
