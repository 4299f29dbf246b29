/**
 * Aho-Corasick automaton over the anchors of all patterns: one linear pass over a text tells
 * which anchors occur, so a 300-character memory runs only the handful of patterns that could
 * possibly match, and a 100k-character input is scanned once instead of once per pattern.
 */
export class AnchorIndex {
  private readonly transitions: Map<number, number>[] = [new Map()];
  /** Complete ASCII transition table (failure links folded in), 128 entries per state, for the hot loop. */
  private ascii: Int32Array = new Int32Array(0);
  private readonly failure: number[] = [0];
  /** Anchor ids ending at each state (including those reached through failure links). */
  private readonly outputs: number[][] = [[]];
  private readonly ids = new Map<string, number>();

  constructor(anchors: Iterable<string>) {
    for (const anchor of anchors) this.add(anchor);
    this.link();
  }

  /** Id of an anchor given to the constructor. */
  idOf(anchor: string): number {
    const id = this.ids.get(anchor);
    if (id === undefined) throw new Error(`unknown anchor ${anchor}`);
    return id;
  }

  get size(): number {
    return this.ids.size;
  }

  /** found[id] === 1 for every anchor that occurs in text. */
  scan(text: string): Uint8Array {
    const found = new Uint8Array(this.ids.size);
    const ascii = this.ascii;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 128) {
        state = ascii[state * 128 + code];
      } else {
        let next = this.transitions[state].get(code);
        while (next === undefined && state !== 0) {
          state = this.failure[state];
          next = this.transitions[state].get(code);
        }
        state = next ?? 0;
      }
      const output = this.outputs[state];
      for (let k = 0; k < output.length; k++) found[output[k]] = 1;
    }
    return found;
  }

  private add(anchor: string): void {
    if (anchor.length === 0 || this.ids.has(anchor)) return;
    let state = 0;
    for (let i = 0; i < anchor.length; i++) {
      const code = anchor.charCodeAt(i);
      let next = this.transitions[state].get(code);
      if (next === undefined) {
        next = this.transitions.length;
        this.transitions.push(new Map());
        this.failure.push(0);
        this.outputs.push([]);
        this.transitions[state].set(code, next);
      }
      state = next;
    }
    const id = this.ids.size;
    this.ids.set(anchor, id);
    this.outputs[state].push(id);
  }

  private link(): void {
    const queue: number[] = [];
    for (const child of this.transitions[0].values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [code, child] of this.transitions[state]) {
        let fallback = this.failure[state];
        while (fallback !== 0 && !this.transitions[fallback].has(code)) fallback = this.failure[fallback];
        const target = this.transitions[fallback].get(code);
        this.failure[child] = target !== undefined && target !== child ? target : 0;
        this.outputs[child] = [...this.outputs[child], ...this.outputs[this.failure[child]]];
        queue.push(child);
      }
    }
    // Fold failure links into a dense table for ASCII; states are numbered in creation order,
    // and BFS order guarantees a state's failure target is filled before the state itself.
    const states = this.transitions.length;
    this.ascii = new Int32Array(states * 128);
    const order = [0, ...queue];
    for (const state of order) {
      for (let code = 0; code < 128; code++) {
        const direct = this.transitions[state].get(code);
        this.ascii[state * 128 + code] = direct !== undefined ? direct : state === 0 ? 0 : this.ascii[this.failure[state] * 128 + code];
      }
    }
  }
}
