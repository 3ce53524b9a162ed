/**
 * Texts of a ring's newest records (the request journal's, the inspector's), kept as UTF-8 in pages outside the
 * JS heap and read back when someone asks.
 *
 * Why not strings: a ring keeps each record for its next few hundred requests, long enough to outlive the young
 * generation's collections. Kept as objects and strings, every record was copied by the scavenger, promoted, and
 * left to die in the old generation. Measured on the event rounds (docs/benchmarks.md), 3,000 API writes each
 * answered to a waiting poll: each scavenge promoted ~900 KB with the rings' records on the heap and ~305 KB with
 * their texts here, and its median pause went from 6.0–6.5 to 2.9–3.6 ms. A page is one Buffer, never copied.
 *
 * The log is one stream of bytes cut into pages of `pageBytes`; a text may run on from one page into the next, so
 * nothing is wasted but the few bytes that keep a length from being cut. Records leave a ring oldest first, so
 * `trim(position)` frees every page wholly before the oldest record still kept. Positions only grow (a double
 * counts bytes exactly for 2^53 of them).
 */
export class TextLog {
  /** The pages held, oldest first: page i covers positions from (first + i) × pageBytes. */
  readonly #pages: Buffer[] = [];
  #first = 0;
  /** Where the next text goes. */
  #end = 0;
  /** Freed pages kept for reuse, so a busy ring does not allocate a page every few dozen records. */
  readonly #spare: Buffer[] = [];

  constructor(private readonly pageBytes = 64 * 1024) {}

  /** Stores `text`; the position returned reads it back (`read`) until a `trim` past it. */
  append(text: string): number {
    let offset = this.#end % this.pageBytes;
    // A length is never cut by a page's end: the last bytes of a page too short for one stay unused.
    if (offset > this.pageBytes - HEAD) {
      this.#end += this.pageBytes - offset;
      offset = 0;
    }
    const position = this.#end;
    const page = this.#pageFor(position);
    // A UTF-16 unit is at most 3 bytes of UTF-8: within that bound the text is written straight into the page.
    if (offset + HEAD + text.length * 3 <= this.pageBytes) {
      const written = page.write(text, offset + HEAD, 'utf8');
      page.writeUInt32LE(written, offset);
      this.#end += HEAD + written;
      return position;
    }
    const bytes = Buffer.from(text, 'utf8');
    page.writeUInt32LE(bytes.length, offset);
    this.#end += HEAD;
    for (let done = 0; done < bytes.length;) {
      const at = this.#end % this.pageBytes;
      const copied = bytes.copy(this.#pageFor(this.#end), at, done, Math.min(bytes.length, done + this.pageBytes - at));
      done += copied;
      this.#end += copied;
    }
    return position;
  }

  /** The text `append` stored at `position`; null once a trim passed it, or for a position at or past the end. */
  read(position: number): string | null {
    const index = Math.floor(position / this.pageBytes) - this.#first;
    const page = this.#pages[index];
    if (position >= this.#end || !page) return null;
    const offset = position % this.pageBytes;
    const length = page.readUInt32LE(offset);
    const start = offset + HEAD;
    if (start + length <= this.pageBytes) return page.toString('utf8', start, start + length);
    const parts = [page.subarray(start)];
    for (let left = length - (this.pageBytes - start), i = index + 1; left > 0; i++) {
      parts.push(this.#pages[i]!.subarray(0, Math.min(left, this.pageBytes)));
      left -= this.pageBytes;
    }
    return Buffer.concat(parts).toString('utf8');
  }

  /** Frees the pages that hold nothing at or after `position` (the oldest record the ring still keeps). */
  trim(position: number): void {
    while (this.#pages.length > 0 && (this.#first + 1) * this.pageBytes <= Math.min(position, this.#end)) {
      const freed = this.#pages.shift()!;
      this.#first++;
      if (this.#spare.length < SPARE_PAGES) this.#spare.push(freed);
    }
  }

  /** The position the next text will have (so `end - append(text)` is what that text took). */
  get end(): number {
    return this.#end;
  }

  /** Bytes of the pages held, spare ones included: what the log costs outside the heap. */
  get bytes(): number {
    return (this.#pages.length + this.#spare.length) * this.pageBytes;
  }

  /** The page that holds `position`, made (or taken from the spare ones) when the log first reaches it. */
  #pageFor(position: number): Buffer {
    const index = Math.floor(position / this.pageBytes) - this.#first;
    while (this.#pages.length <= index) this.#pages.push(this.#spare.pop() ?? Buffer.allocUnsafeSlow(this.pageBytes));
    return this.#pages[index]!;
  }
}

/** Each text is preceded by its length in bytes (uint32). */
const HEAD = 4;
const SPARE_PAGES = 4;

/**
 * Writes a cell of a ring's column (the rings that keep their texts here keep their other fields in plain arrays):
 * appends while the ring fills, so the array stays packed (an array of numbers then stores them unboxed), and
 * overwrites after.
 */
export function put<T>(column: T[], slot: number, value: T): void {
  if (slot === column.length) column.push(value);
  else column[slot] = value;
}
