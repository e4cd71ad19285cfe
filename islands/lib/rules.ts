// Client side of the purchase form's validation rules. The rules are defined once in Go
// (palaro.PurchaseRules) and arrive in the island's props; check mirrors FieldRule.Check, so the
// island shows the very message the server would answer. Patterns are read with the u flag
// (Unicode property classes such as \p{L}).

/** FieldRule is one field's rule, as palaro.FieldRule encodes it in JSON. */
export type FieldRule = {
  field: string;
  label: string;
  input: 'text' | 'email' | 'tel' | 'digits' | 'date' | 'select' | 'survey' | 'checkbox' | 'quantity';
  requiredWhen: '' | 'always' | 'newBuyer';
  message: string;
  pattern?: string;
  /** strip is a pattern of characters removed before pattern is matched (a mobile number's separators). */
  strip?: string;
  patternMessage?: string;
  options?: string[];
  maxLength?: number;
  max?: number;
  maxMessage?: string;
  locked?: boolean;
  hidden?: boolean;
};

/** check returns the rule's message for value, or '' when it passes; existing users skip newBuyer rules. */
export function check(r: FieldRule | undefined, value: string, existingUser = false): string {
  if (!r || (r.requiredWhen === 'newBuyer' && existingUser)) return '';
  const v = value.trim();
  if (!v) return r.requiredWhen ? r.message : '';
  if (r.maxLength && Array.from(v).length > r.maxLength) return r.patternMessage || `${r.label} is too long`;
  if (r.pattern && !new RegExp(r.pattern, 'u').test(r.strip ? v.replace(new RegExp(r.strip, 'gu'), '') : v)) return r.patternMessage || '';
  if (r.options?.length && !r.options.includes(v)) return r.patternMessage || '';
  if (r.max) {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) return r.message;
    if (n > r.max) return r.maxMessage || '';
  }
  return '';
}
