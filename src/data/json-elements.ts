/**
 * Splits a streamed JSON document into the texts of its records without holding the whole
 * document: the elements of a root array (`[...]`), or of the `features` array of a root
 * object (a GeoJSON FeatureCollection). Each element comes with the 1-based line on which
 * it starts, so errors can name it. Elements are parsed by the caller with JSON.parse.
 *
 * Invariant: only the text of the element being read (plus the current chunk) is held.
 */
export interface JsonElement {
  readonly text: string;
  readonly line: number;
}

const enum Mode {
  /** Before the root value. */
  Start,
  /** Inside the document, outside any captured element. */
  Scan,
  /** After the root value closed. */
  Done,
}

export class JsonElementSplitter {
  private mode = Mode.Start;
  private line = 1;
  /** Container stack: '[' or '{'. */
  private readonly stack: string[] = [];
  /** Depth (stack length) at which records live; 0 until known. */
  private elementDepth = 0;
  private inString = false;
  private escape = false;
  /** Text of the current string token when it may be an object key at depth 1. */
  private keyBuf: string | null = null;
  private lastKey = '';
  private expectingKey = false;
  // Capture of the current element.
  private capture: string[] | null = null;
  private captureStart = 0;
  private captureLine = 0;
  private captureDepth = 0;
  private captureScalar = false;
  /** What the root was: 'array', 'featureCollection', or null before it is known. */
  root: 'array' | 'object' | null = null;
  /** Whether a `features` array was found in a root object. */
  sawFeatures = false;

  /** Feeds a chunk; returns the elements completed in it. */
  push(chunk: string): JsonElement[] {
    const out: JsonElement[] = [];
    const n = chunk.length;
    if (this.capture) this.captureStart = 0;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) this.line++;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92) this.escape = true;
        else if (c === 34) {
          this.inString = false;
          if (this.keyBuf !== null) {
            this.lastKey = this.keyBuf;
            this.keyBuf = null;
          }
          if (this.captureScalar) this.finishScalar(chunk, i + 1, out);
        } else if (this.keyBuf !== null) this.keyBuf += chunk[i];
        continue;
      }
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        if (this.captureScalar) this.finishScalar(chunk, i, out);
        continue;
      }
      if (this.mode === Mode.Done) throw new SyntaxError(`unexpected text after the end of the JSON document at line ${this.line}`);
      const depth = this.stack.length;
      // A new element starts at the element depth when nothing is being captured.
      if (!this.capture && this.elementDepth > 0 && depth === this.elementDepth && c !== 44 && c !== 93 && c !== 125) {
        this.capture = [];
        this.captureStart = i;
        this.captureLine = this.line;
        this.captureDepth = depth;
        this.captureScalar = c !== 123 && c !== 91;
        if (this.captureScalar && c === 34) this.inString = true;
        if (this.captureScalar) continue;
      }
      if (this.captureScalar && (c === 44 || c === 93 || c === 125)) this.finishScalar(chunk, i, out);
      switch (c) {
        case 34: // "
          this.inString = true;
          this.keyBuf = depth === 1 && this.stack[0] === '{' && this.expectingKey ? '' : null;
          break;
        case 123: // {
        case 91: // [
          if (this.mode === Mode.Start) {
            this.mode = Mode.Scan;
            this.root = c === 91 ? 'array' : 'object';
            if (c === 91) this.elementDepth = 1;
          } else if (depth === 1 && this.root === 'object' && c === 91 && this.lastKey === 'features' && !this.sawFeatures) {
            this.sawFeatures = true;
            this.elementDepth = 2;
          }
          this.stack.push(c === 123 ? '{' : '[');
          this.expectingKey = c === 123;
          break;
        case 125: // }
        case 93: // ]
          if (this.stack.pop() !== (c === 125 ? '{' : '[')) throw new SyntaxError(`mismatched ${String.fromCharCode(c)} at line ${this.line}`);
          if (this.capture && this.stack.length === this.captureDepth) this.finishElement(chunk, i + 1, out);
          if (this.stack.length === 1 && this.elementDepth === 2 && c === 93) this.elementDepth = -1; // features array closed
          if (this.stack.length === 0) this.mode = Mode.Done;
          this.expectingKey = false;
          break;
        case 44: // ,
          this.expectingKey = this.stack[this.stack.length - 1] === '{';
          break;
        case 58: // :
          this.expectingKey = false;
          break;
        default:
          if (this.mode === Mode.Start) throw new SyntaxError(`the document must start with [ or {; got ${JSON.stringify(chunk[i])} at line ${this.line}`);
      }
    }
    if (this.capture) this.capture.push(chunk.slice(this.captureStart));
    return out;
  }

  /** Call at end of input: throws if the document is incomplete. */
  end(): JsonElement[] {
    const out: JsonElement[] = [];
    if (this.captureScalar) this.finishScalar('', 0, out);
    if (this.mode !== Mode.Done) {
      throw new SyntaxError(this.mode === Mode.Start ? 'the document is empty' : `the JSON document ends early (at line ${this.line})`);
    }
    return out;
  }

  private finishElement(chunk: string, end: number, out: JsonElement[]): void {
    const parts = this.capture!;
    parts.push(chunk.slice(this.captureStart, end));
    out.push({ text: parts.join(''), line: this.captureLine });
    this.capture = null;
  }

  private finishScalar(chunk: string, end: number, out: JsonElement[]): void {
    this.captureScalar = false;
    this.finishElement(chunk, end, out);
  }
}
