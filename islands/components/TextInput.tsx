// Text input with a floating placeholder that is the field's <label>, an optional password
// show/hide toggle, digits-only filtering and paste blocking (SPEC.md "Form pieces").
import { useState, type SyntheticEvent, type ReactNode } from 'react';
import { digits } from '../lib/api';

/** TextInputProps configure one labelled input. */
export type TextInputProps = {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  type?: 'text' | 'password' | 'tel' | 'email' | 'number' | 'date';
  error?: string;
  maxLength?: number;
  readOnly?: boolean;
  disabled?: boolean;
  required?: boolean;
  autoComplete?: string;
  /** digitsOnly drops every character that is not a digit. */
  digitsOnly?: boolean;
  /** numeric asks for the digit keyboard and drops letters but keeps a decimal point or comma, so '2.5' stays to be refused rather than becoming 25. */
  numeric?: boolean;
  /** noPaste blocks pasting into the input. */
  noPaste?: boolean;
  hint?: ReactNode;
};

/** TextInput renders an input whose floating placeholder is its label. */
export function TextInput(p: TextInputProps) {
  const [shown, setShown] = useState(false);
  const isPassword = p.type === 'password';
  const type = isPassword && shown ? 'text' : p.type === 'number' ? 'text' : p.type || 'text';
  const numeric = p.digitsOnly || p.numeric || p.type === 'number';
  const errId = `${p.id}-error`;
  const change = (raw: string) => {
    p.onChange(p.numeric ? raw.replace(/[^0-9.,]+/g, '') : numeric ? digits(raw) : raw);
  };
  const block = (e: SyntheticEvent<HTMLInputElement>) => {
    if (p.noPaste) e.preventDefault();
  };
  return (
    <div className={`field${p.error ? ' invalid' : ''}${p.readOnly ? ' readonly' : ''}`}>
      <div className="float">
        <input
          id={p.id}
          name={p.name}
          type={type}
          value={p.value}
          placeholder=" "
          maxLength={p.maxLength ?? 9999}
          readOnly={p.readOnly}
          disabled={p.disabled}
          required={p.required}
          autoComplete={p.autoComplete}
          inputMode={numeric ? 'numeric' : p.type === 'tel' ? 'tel' : p.type === 'email' ? 'email' : undefined}
          pattern={numeric ? '[0-9]*' : undefined}
          aria-invalid={p.error ? true : undefined}
          aria-describedby={p.error ? errId : undefined}
          onChange={(e) => change(e.target.value)}
          onBlur={p.onBlur}
          onPaste={block}
          onDrop={block}
        />
        <label htmlFor={p.id}>{p.label}</label>
        {isPassword && (
          <button type="button" className="reveal" aria-pressed={shown} aria-label={shown ? 'Hide password' : 'Show password'} onClick={() => setShown(!shown)}>
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      {p.hint && !p.error && <p className="field-hint">{p.hint}</p>}
      {p.error && (
        <p className="field-error" id={errId}>
          {p.error}
        </p>
      )}
    </div>
  );
}

/** SelectProps configure one labelled choice list. */
export type SelectProps = {
  id: string;
  name: string;
  label: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  required?: boolean;
};

/** Select renders a choice list with the same floating label as TextInput. */
export function Select(p: SelectProps) {
  const errId = `${p.id}-error`;
  return (
    <div className={`field${p.error ? ' invalid' : ''}`}>
      <div className={`float select${p.value ? ' filled' : ''}`}>
        <select
          id={p.id}
          name={p.name}
          value={p.value}
          required={p.required}
          aria-invalid={p.error ? true : undefined}
          aria-describedby={p.error ? errId : undefined}
          onChange={(e) => p.onChange(e.target.value)}
          onBlur={p.onBlur}
        >
          <option value="" />
          {p.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <label htmlFor={p.id}>{p.label}</label>
      </div>
      {p.error && (
        <p className="field-error" id={errId}>
          {p.error}
        </p>
      )}
    </div>
  );
}
