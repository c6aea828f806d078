// The benchmark corpus of benches/src/corpus.rs, written the same way (the
// same xorshift seed and steps): 20,000 records with small and 30-digit ints,
// 22-digit decimals, non-ASCII strings with escapes, nested lists, optional
// members. `node corpus.js` prints its size and checks it against flow-core's
// canonical form.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const LISTING = fs.readFileSync(path.join(here, '..', 'corpus.tools.json'), 'utf8')
const MASK = (1n << 64n) - 1n

const WORDS = [
  'Zürich', '東京', 'naïve', 'line\\nbreak', 'tab\\there', 'quote\\"d', 'emoji 🌧', 'plain', 'Ελλάδα',
  '\\u00e9t\\u00e9', 'back\\\\slash', 'ascii',
]

class XorShift {
  constructor(seed) {
    this.state = seed
  }

  next() {
    let x = this.state
    x ^= (x << 13n) & MASK
    x ^= x >> 7n
    x ^= (x << 17n) & MASK
    this.state = x
    return x
  }

  below(n) {
    return Number(this.next() % BigInt(n))
  }

  digits(n) {
    let s = String.fromCharCode(49 + this.below(9))
    for (let i = 1; i < n; i++) s += String.fromCharCode(48 + this.below(10))
    return s
  }
}

export function corpus(count) {
  const rng = new XorShift(0x9e3779b97f4a7c15n)
  const out = ['[\n']
  for (let i = 0; i < count; i++) {
    if (i > 0) out.push(',\n')
    const small = rng.below(100_000)
    const big = rng.digits(30)
    const decimal = `${rng.digits(10)}.${rng.digits(12)}`
    const name = WORDS[rng.below(WORDS.length)]
    const note = WORDS[rng.below(WORDS.length)]
    out.push(`  {"name": "${name} ${i}", "id": ${small}, "serial": ${big}, "reading": ${decimal}, "tags": ["${note}", "t${small}"]`)
    out.push(', "matrix": [')
    for (let r = 0; r < 3; r++) {
      if (r > 0) out.push(', ')
      out.push(`[${rng.below(1000)}, ${rng.digits(18)}, -${rng.below(50)}]`)
    }
    out.push(']')
    if (rng.below(2) === 0) out.push(`, "comment": "${note} ✓"`)
    if (rng.below(3) === 0) out.push(`, "delta": -${rng.below(100)}.${rng.digits(6)}0`)
    out.push('}')
  }
  out.push('\n]\n')
  return out.join('')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = corpus(20_000)
  console.log(`${Buffer.byteLength(text).toLocaleString('en')} bytes`)
}
