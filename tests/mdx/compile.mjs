// Batch MDX 3 compiler for docgen's tests (driven by tests/mdxc.py).
//
// stdin:  JSON array of {"name": string, "text": string}
// stdout: JSON array, same order, of
//           {"name", "ok": bool, "error": string|null, "line": int|null, "column": int|null}
//         With --text each result also carries what the compiler's mdast says:
//           "text":        literal values of every text, inlineCode and code node, concatenated
//                          in document order (null when compilation failed)
//           "tables":      per table, the number of cells in each row
//           "frontmatter": the raw value of the yaml frontmatter node, or null
//         With --tree each result carries "tree": the mdast as plain JSON, without positions
//         and without the estree data of MDX nodes (null when compilation failed).
//
// Every document goes through the same pipeline as
//   compile(text, {remarkPlugins: [remarkFrontmatter, remarkGfm]})
// but one processor is built once and reused, so a batch of hundreds of documents
// costs one node start-up. In --text mode a last remark plugin records the mdast
// after all remark plugins ran (what remark-rehype then turns into JSX).

import {createProcessor} from '@mdx-js/mdx'
import remarkFrontmatter from 'remark-frontmatter'
import remarkGfm from 'remark-gfm'

const LITERAL_TYPES = new Set(['text', 'inlineCode', 'code'])

let captured = null

function remarkCapture() {
  return (tree) => {
    captured = tree
  }
}

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = []
    process.stdin.on('data', (chunk) => chunks.push(chunk))
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    process.stdin.on('error', reject)
  })
}

function walk(node, visit) {
  visit(node)
  for (const child of node.children ?? []) walk(child, visit)
}

function describeTree(tree) {
  const parts = []
  const tables = []
  let frontmatter = null
  walk(tree, (node) => {
    if (LITERAL_TYPES.has(node.type)) parts.push(node.value)
    else if (node.type === 'yaml' && frontmatter === null) frontmatter = node.value
    else if (node.type === 'table') tables.push(node.children.map((row) => row.children.length))
  })
  return {text: parts.join(''), tables, frontmatter}
}

// The mdast without what differs between equal trees written differently: positions and
// the estree programs MDX attaches to ESM, expressions and JSX attributes.
function plainTree(node) {
  const {position, data, ...rest} = node
  if (node.children) rest.children = node.children.map(plainTree)
  if (node.attributes) rest.attributes = node.attributes.map(plainTree)
  if (rest.value && typeof rest.value === 'object') rest.value = plainTree(rest.value)
  return rest
}

// VFileMessage carries line/column, except some (e.g. mdast-util-mdx-jsx end-tag-mismatch)
// that only keep the place in their name ("1:1" or "1:1-1:6").
function describeError(error) {
  const place = error.place?.start ?? error.place
  const named = /^(\d+):(\d+)/.exec(String(error.name ?? ''))
  return {
    ok: false,
    error: String(error.reason ?? error.message ?? error),
    line: error.line ?? place?.line ?? (named ? Number(named[1]) : null),
    column: error.column ?? place?.column ?? (named ? Number(named[2]) : null)
  }
}

function readTree(result, withText, withTree) {
  const ok = Boolean(captured && result.ok)
  const failed = {text: null, tables: [], frontmatter: null}
  const text = withText ? (ok ? describeTree(captured) : failed) : {}
  const tree = withTree ? {tree: ok ? plainTree(captured) : null} : {}
  return {...text, ...tree}
}

function compileOne(processor, doc, withText, withTree) {
  captured = null
  let result
  try {
    processor.processSync(doc.text)
    result = {ok: true, error: null, line: null, column: null}
  } catch (error) {
    result = describeError(error)
  }
  return {name: doc.name, ...result, ...readTree(result, withText, withTree)}
}

async function main() {
  const withText = process.argv.includes('--text')
  const withTree = process.argv.includes('--tree')
  const remarkPlugins = [remarkFrontmatter, remarkGfm]
  if (withText || withTree) remarkPlugins.push(remarkCapture)
  const processor = createProcessor({remarkPlugins})
  const docs = JSON.parse(await readStdin())
  if (!Array.isArray(docs)) throw new TypeError('stdin must be a JSON array of {name, text}')
  const results = docs.map((doc) => compileOne(processor, doc, withText, withTree))
  process.stdout.write(JSON.stringify(results))
}

await main()
