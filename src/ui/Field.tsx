import { type InputHTMLAttributes, useId } from 'react';
import { css } from '../../styled-system/css';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  readonly label: string;
  readonly error?: string | null;
  readonly hint?: string;
}

const input = css({
  w: 'full',
  h: '10',
  px: '3',
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'control',
  bg: 'bg',
  color: 'fg.highlighted',
  _invalid: { borderColor: 'error' },
});

/** A labelled text input whose error is tied to it for screen readers. */
export function Field({ label, error, hint, id, ...rest }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={css({ display: 'grid', gap: '1.5' })}>
      <label
        htmlFor={inputId}
        className={css({ fontWeight: 'medium', color: 'fg.highlighted', fontSize: 'sm' })}
      >
        {label}
      </label>
      <input
        {...rest}
        id={inputId}
        className={input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint ? (
        <p id={`${inputId}-hint`} className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className={css({ fontSize: 'sm', color: 'error.text' })}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
