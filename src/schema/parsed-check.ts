/**
 * A schema's fast check, compiled to JavaScript as TypeBox's TypeCompiler compiles its own.
 * TypeBox stays the one definition of the rules and gives every error message; this check
 * only answers valid or not, faster on records:
 * - an object's properties are visited once each with `for...in` (a read through the
 *   enumeration cache), where TypeBox reads every known key (for a record, some thirty
 *   absent optional ones, each a megamorphic miss across the records' shapes) and lists the
 *   own keys into a fresh array to find unknown ones;
 * - an array is walked by index, where TypeBox makes a closure and an iterator per array.
 *
 * Two kinds of values (CheckedValues):
 * - 'json' (compileParsedCheck): values made by JSON.parse, plain objects whose own properties
 *   are all enumerable data properties. On them the verdict is TypeBox's, valid or not
 *   (test/schema/parsed-check.test.ts compares them).
 * - 'any' (compileValueCheck): values made in code, which may hold what `for...in` does not
 *   see and TypeBox does (a non-enumerable own property, a prototype's property, an array's
 *   own iterator). Every object must also have Object.prototype or null as its prototype,
 *   and as many own property names (Object.getOwnPropertyNames, as TypeBox lists them) as
 *   own keys `for...in` visited; every array Array.prototype. So true means TypeBox says
 *   valid; false means "ask TypeBox" (a plain value TypeBox refuses, or one this check
 *   cannot vouch for). Costs one list of property names per object, which TypeBox makes too.
 *
 * The subset compiled: Object (properties, required, additionalProperties false or absent; no
 * key that Object.prototype has, such as `constructor`: TypeBox reads an absent one through
 * the prototype), String (minLength, maxLength, pattern), Number and Integer (minimum,
 * maximum, exclusive bounds), Boolean, Null, Literal, Union, Array (items, minItems, maxItems)
 * and Tuple. A node with any other kind or keyword is checked by TypeBox's compiled check of
 * that node, so the verdict stays TypeBox's whatever the schema grows.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeSystemPolicy } from '@sinclair/typebox/system';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** A compiled verdict: whether a value meets the schema (see the module comment for which values). */
export type ParsedValueCheck = (value: unknown) => boolean;

/** Which values a fast check is compiled for (see the module comment). */
type CheckedValues = 'json' | 'any';

/** Keywords that say nothing about validity, allowed on every node. */
const ANNOTATIONS = ['$id', '$comment', 'title', 'description', 'default', 'examples', 'type'];

/** The validation keywords compiled here, by TypeBox kind (a node with another is TypeBox's). */
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  Object: ['properties', 'required', 'additionalProperties'],
  String: ['minLength', 'maxLength', 'pattern'],
  Number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  Integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  Boolean: [],
  Null: [],
  Literal: ['const'],
  Union: ['anyOf'],
  Array: ['items', 'minItems', 'maxItems'],
  Tuple: ['items', 'minItems', 'maxItems', 'additionalItems'],
};

/** Keywords whose value TypeBox uses only when it is a number (see {@link compilable}). */
const NUMERIC = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems']);

/**
 * Compiles `schema` (a TypeBox schema without references) into a check for values made by
 * JSON.parse: true exactly when TypeBox's `TypeCompiler.Compile(schema).Check` is.
 */
export function compileParsedCheck(schema: TSchema): ParsedValueCheck {
  return compileFastCheck(schema, 'json');
}

/**
 * Compiles `schema` into a check for any value, made in code or not: true only when
 * TypeBox's `TypeCompiler.Compile(schema).Check` is; false when TypeBox refuses the value or
 * this check cannot vouch for it (an object not plain: see the module comment), so a caller
 * asks TypeBox then.
 */
export function compileValueCheck(schema: TSchema): ParsedValueCheck {
  return compileFastCheck(schema, 'any');
}

function compileFastCheck(schema: TSchema, values: CheckedValues): ParsedValueCheck {
  // TypeBox's non-default policies change its verdicts: then its own check is the check.
  const policy = TypeSystemPolicy;
  if (policy.AllowNaN || policy.AllowArrayObject || policy.AllowNullVoid || policy.ExactOptionalPropertyTypes) return typeBoxCheck(schema);
  const writer = new CheckWriter(values);
  const root = writer.expression(schema, 'value');
  const source = `${writer.functions.join('\n')}\nreturn function check(value) { return ${root}; };`;
  return new Function('external', source)(writer.externals) as ParsedValueCheck;
}

function typeBoxCheck(schema: TSchema): ParsedValueCheck {
  const compiled = TypeCompiler.Compile(schema);
  return (value) => compiled.Check(value);
}

/** Writes the check's source: one function per object and array node, inline expressions for the rest. */
class CheckWriter {
  /** Function declarations, each `function fN(v) {...}`. */
  readonly functions: string[] = [];
  /** Values the source refers to as `external[i]`: patterns and TypeBox's checks of nodes outside the subset. */
  readonly externals: unknown[] = [];
  /** The function of each object or array node written so far (a schema used in several places, such as the weekly hours, has one). */
  private readonly named = new Map<TSchema, string>();
  /** 'any': every object and array is also checked to be plain (see the module comment). */
  private readonly plain: boolean;

  constructor(values: CheckedValues) {
    this.plain = values === 'any';
  }

  /** A JavaScript expression, true when the variable `v` meets `schema`. */
  expression(schema: TSchema, v: string): string {
    const kind = schema[Kind] as string;
    if (!compilable(schema, kind)) return `${this.external(typeBoxCheck(schema))}(${v})`;
    switch (kind) {
      case 'Object':
      case 'Array': {
        let name = this.named.get(schema);
        if (name === undefined) {
          name = kind === 'Object' ? this.objectFunction(schema) : this.arrayFunction(schema);
          this.named.set(schema, name);
        }
        return `${name}(${v})`;
      }
      case 'Tuple': {
        const items = schema.items as TSchema[] | undefined;
        if (items === undefined) return `(Array.isArray(${v}) && ${v}.length === 0)`;
        const parts = [`Array.isArray(${v})`, `${v}.length === ${number(schema.maxItems)}`];
        // each element checked where it stands (an object or array element by its function)
        items.forEach((item, i) => parts.push(this.expression(item, `${v}[${i}]`)));
        return `(${parts.join(' && ')})`;
      }
      case 'String': {
        const parts = [`typeof ${v} === 'string'`];
        if (schema.maxLength !== undefined) parts.push(`${v}.length <= ${number(schema.maxLength)}`);
        if (schema.minLength !== undefined) parts.push(`${v}.length >= ${number(schema.minLength)}`);
        if (schema.pattern !== undefined) parts.push(`${this.external(new RegExp(schema.pattern as string))}.test(${v})`);
        return `(${parts.join(' && ')})`;
      }
      case 'Number':
      case 'Integer': {
        const parts = [kind === 'Number' ? `Number.isFinite(${v})` : `Number.isInteger(${v})`];
        if (schema.exclusiveMaximum !== undefined) parts.push(`${v} < ${number(schema.exclusiveMaximum)}`);
        if (schema.exclusiveMinimum !== undefined) parts.push(`${v} > ${number(schema.exclusiveMinimum)}`);
        if (schema.maximum !== undefined) parts.push(`${v} <= ${number(schema.maximum)}`);
        if (schema.minimum !== undefined) parts.push(`${v} >= ${number(schema.minimum)}`);
        return `(${parts.join(' && ')})`;
      }
      case 'Boolean':
        return `(typeof ${v} === 'boolean')`;
      case 'Null':
        return `(${v} === null)`;
      case 'Literal':
        return `(${v} === ${JSON.stringify(schema.const)})`;
      case 'Union':
        return `(${(schema.anyOf as TSchema[]).map((branch) => this.expression(branch, v)).join(' || ')})`;
      default:
        throw new Error(`parsed-check: kind ${kind} passed as compilable`);
    }
  }

  /**
   * An object node's function: each own key visited once; a known key's value checked (an
   * optional one only when not undefined, as TypeBox does), an unknown key refused when
   * additional properties are not allowed, and the required keys counted. For any value
   * ('any'), also the prototype, and the keys visited against the own property names.
   */
  private objectFunction(schema: TSchema): string {
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const cases = Object.keys(properties).map((key) => {
      const check = this.expression(properties[key]!, 'x');
      return required.has(key)
        ? `case ${JSON.stringify(key)}: if (!${check}) return false; required++; break;`
        : `case ${JSON.stringify(key)}: if (x !== undefined && !${check}) return false; break;`;
    });
    const unknownKey = schema.additionalProperties === false ? 'return false;' : 'break;';
    const plain = this.plain;
    return this.declare(
      (name) => `function ${name}(v) {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;${plain ? `
  const prototype = Object.getPrototypeOf(v);
  if (prototype !== Object.prototype && prototype !== null) return false;
  let visited = 0;` : ''}
  let required = 0;
  for (const key in v) {${plain ? `
    if (Object.prototype.hasOwnProperty.call(v, key)) visited++;` : ''}
    const x = v[key];
    switch (key) {
      ${cases.join('\n      ')}
      default: ${unknownKey}
    }
  }
  return required === ${required.size}${plain ? ' && visited === Object.getOwnPropertyNames(v).length' : ''};
}`,
    );
  }

  /** An array node's function: its length bounds, then each element by index. */
  private arrayFunction(schema: TSchema): string {
    const bounds = [
      schema.maxItems !== undefined ? ` || v.length > ${number(schema.maxItems)}` : '',
      schema.minItems !== undefined ? ` || v.length < ${number(schema.minItems)}` : '',
    ].join('');
    const check = this.expression(schema.items as TSchema, 'x');
    return this.declare(
      (name) => `function ${name}(v) {
  if (!Array.isArray(v)${bounds}${this.plain ? ' || Object.getPrototypeOf(v) !== Array.prototype' : ''}) return false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!${check}) return false;
  }
  return true;
}`,
    );
  }

  /** Adds a function (its nested nodes' functions are declared before it) and returns its name. */
  private declare(write: (name: string) => string): string {
    const name = `f${this.functions.length}`;
    this.functions.push(write(name));
    return name;
  }

  private external(value: unknown): string {
    this.externals.push(value);
    return `external[${this.externals.length - 1}]`;
  }
}

/** Whether this file compiles the node itself (its kind and every keyword in the subset). */
function compilable(schema: TSchema, kind: string): boolean {
  const keywords = KEYWORDS[kind];
  if (keywords === undefined) return false;
  for (const key of Object.keys(schema)) {
    if (!ANNOTATIONS.includes(key) && !keywords.includes(key)) return false;
    if (NUMERIC.has(key) && typeof schema[key] !== 'number') return false;
  }
  if (kind === 'Object') {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false;
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    // TypeBox reads a known key that is absent through the prototype (`v.constructor`)
    if (Object.keys(properties).some((key) => key in Object.prototype)) return false;
    for (const key of (schema.required ?? []) as string[]) {
      const property = properties[key];
      // a required key with no property schema, or one of a kind outside the subset (Any,
      // Undefined: TypeBox then also asks whether the key is there): TypeBox's
      if (property === undefined || KEYWORDS[property[Kind] as string] === undefined) return false;
    }
  }
  if (kind === 'Tuple' && schema.items !== undefined && typeof schema.maxItems !== 'number') return false;
  if (kind === 'Array' && (schema.items === undefined || Array.isArray(schema.items))) return false;
  if (kind === 'Literal' && !['string', 'number', 'boolean'].includes(typeof schema.const)) return false;
  return true;
}

/** A schema's numeric keyword as source text (TypeBox writes the value into its code the same way). */
function number(value: unknown): string {
  if (typeof value !== 'number') throw new Error(`parsed-check: expected a number keyword, got ${String(value)}`);
  return String(value);
}
