import type { InputHTMLAttributes, ReactNode } from 'react';

type InputFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'onChange'> & {
  /** the input's test id; its error's is `{testId}-error` */
  testId: string;
  error?: string | null;
  onValue(v: string): void;
  /** the field's extra class (`field--code`) */
  variant?: string;
  /** beside the input, in one row (the code's send button) */
  aside?: ReactNode;
};

/** One form field: the input, marked and followed by its error when it has one. */
export function InputField({ testId, error, onValue, variant, aside, ...input }: InputFieldProps) {
  const field = (
    <input {...input} className={`input${error ? ' has-error' : ''}`} data-testid={testId} onChange={(e) => onValue(e.target.value)} />
  );
  return (
    <div className={variant ? `field ${variant}` : 'field'}>
      {aside ? (
        <div className="field__row">
          {field}
          {aside}
        </div>
      ) : (
        field
      )}
      {error && (
        <div className="field__error" data-testid={`${testId}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}
