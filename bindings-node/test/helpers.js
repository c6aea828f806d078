'use strict'
// Shared by the tests: paths, building the example, a raw protocol peer.
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const readline = require('node:readline')

const repo = path.join(__dirname, '..', '..')
const example = path.join(repo, 'examples', 'typescript')
const weatherListing = path.join(repo, 'tests', 'examples', 'weather.tools.json')
const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc')

const scratchDirs = []

/** A fresh directory in the system's temp folder, removed when this test file's process exits. */
function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  // node --test runs each file in a process of its own: its exit ends the file's tests.
  if (scratchDirs.push(dir) === 1) {
    process.on('exit', () => {
      for (const made of scratchDirs) fs.rmSync(made, { recursive: true, force: true })
    })
  }
  return dir
}

function targetDir() {
  const metadata = execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  return JSON.parse(metadata).target_directory
}

/** A binary of the workspace, built by `make node-test` before the tests. */
function binary(name) {
  const file = path.join(targetDir(), 'debug', name)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`cargo build -p ${name}\` (make node-test does)`)
  return file
}

/** Compiles the example's TypeScript into its dist/. */
function buildExample() {
  execFileSync(process.execPath, [tsc, '-p', path.join(example, 'weather-tools')], { stdio: 'inherit' })
}

/** A Tool process spoken to line by line, as a host would. */
class Peer {
  constructor(command, args, cwd) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    this.stderr = ''
    this.child.stderr.on('data', (d) => (this.stderr += d))
    this.lines = []
    this.waiters = []
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line)
      for (const w of this.waiters.splice(0)) w()
    })
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)))
  }

  send(message) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n')
  }

  call(call, tool, args, extra = {}) {
    this.send({ method: 'call', params: { run: 'r', call, tool, args, ...extra } })
  }

  /** Resolves with the lines that match, once there are `count` of them. */
  async replies(call, count = 1) {
    for (;;) {
      const found = this.lines.filter((l) => l.includes(`"call":${JSON.stringify(call)}`))
      if (found.length >= count) return found
      await new Promise((resolve) => this.waiters.push(resolve))
    }
  }

  async reply(call) {
    return JSON.parse((await this.replies(call))[0]).params.outcome
  }

  end() {
    this.child.stdin.end()
    return this.exited
  }
}

/**
 * A Tool process serving the weather listing with handlers written by a test:
 * `body` is JavaScript that sees `t` (this package), `fs`, `listing` and
 * `tools`, and calls `t.serve({ listing, tools }, [...])`.
 */
function weatherScript(prefix, body) {
  const dir = scratchDir(prefix)
  const script = path.join(dir, 'tool.js')
  fs.writeFileSync(
    script,
    `const t = require(${JSON.stringify(path.join(__dirname, '..'))})
const fs = require('node:fs')
const listing = t.canonicalize(fs.readFileSync(${JSON.stringify(weatherListing)}))
const tools = t.stringify(new t.Types(listing).describe().tools)
${body}`,
  )
  return new Peer('node', [script], dir)
}

module.exports = { repo, example, weatherListing, tsc, binary, buildExample, Peer, weatherScript, scratchDir }
