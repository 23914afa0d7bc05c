/**
 * A whole-metres number field (the meet-up radius, the route's corridor) whose value is
 * searched exactly as shown. Its limits live on the <input> (min, max, step 1), which are the
 * API's own (docs/search.md: POINT at most 50,000 m, PATH at most 10,000 m); a value the
 * field does not accept (empty, not a number, out of range, not whole) is never clamped or
 * replaced: the field is marked invalid, a message beside it says why, and no search runs.
 */

export interface MetresField {
  readonly input: HTMLInputElement;
  /** The field's value when valid (an integer within [min, max]), else undefined; updates the message. */
  read(): number | undefined;
  /** Shows `meters` in the field (it must be valid) and clears any message. */
  set(meters: number): void;
}

/** The message for a value the field refuses, or undefined when it is valid. */
export function metresProblem(raw: string, min: number, max: number, what: string): string | undefined {
  const limits = `a whole number of metres from ${min.toLocaleString('en-GB')} to ${max.toLocaleString('en-GB')}`;
  if (raw.trim() === '') return `Enter the ${what}: ${limits}.`;
  const value = Number(raw);
  if (!Number.isFinite(value)) return `The ${what} must be ${limits}.`;
  if (!Number.isInteger(value)) return `The ${what} must be ${limits}; ${raw} is not whole.`;
  if (value < min || value > max) return `The ${what} must be ${limits}; ${raw} is out of range.`;
  return undefined;
}

/**
 * Wires `input` to `message` (a hidden paragraph the input is described by). `what` names the
 * value in the message ("radius").
 */
export function metresField(input: HTMLInputElement, message: HTMLElement, what: string): MetresField {
  const min = Number(input.min);
  const max = Number(input.max);
  const show = (problem: string | undefined): void => {
    message.hidden = problem === undefined;
    message.textContent = problem ?? '';
    if (problem === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  };
  return {
    input,
    read() {
      // badInput: the field holds text that is not a number, and its value reads as ''
      const problem = metresProblem(input.validity.badInput ? 'NaN' : input.value, min, max, what);
      show(problem);
      return problem === undefined ? Number(input.value) : undefined;
    },
    set(meters) {
      input.value = String(meters);
      show(undefined);
    },
  };
}
