// End-to-end: Engram's MCP server as a held-out client sees it — the official TypeScript SDK
// (@modelcontextprotocol/sdk, what Claude Desktop and Code, Cursor, VS Code and the Inspector
// use), never Engram's own Go code. Over stdio to `engram mcp --agent --workdir` and over
// streamable HTTP to `engram serve`'s /mcp with the bridge token: the handshake, every tool's
// schemas (ajv, as the SDK compiles them) and a valid call of each, hostile calls (wrong kinds,
// path tricks, another project's and agent's data, oversized text) answered as tool or JSON-RPC
// errors that say what is wrong, resources, prompts, cursors, notifications, a wrong token, a
// session that outlives a restart of `engram serve`, and clients of 2024-11-05 and 2025-03-26.
//   make cli && ENGRAM_CLI=build/bin/engram-cli E2E_SCRIPT=frontend/tests/e2e/mcp-tsclient.e2e.mjs node frontend/tests/e2e/run.mjs
// (MCPTS_DEBUG=1 logs each refusal of the hostile calls.)
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  EmptyResultSchema,
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  ListResourcesResultSchema,
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import Ajv from 'ajv'
import { Server, cli, suite, tempDir, until } from './lib.mjs'

const s = suite('e2e-mcp-tsclient', import.meta.url)
const { CLI, log, expect, check } = s
const closers = []

/** The JSON a tool answered (its one text block), with isError beside it. */
function body(r) {
  expect(Array.isArray(r.content) && r.content.length >= 1 && r.content[0].type === 'text', `a text block: ${JSON.stringify(r).slice(0, 300)}`)
  return { ...JSON.parse(r.content[0].text), isError: r.isError === true }
}

/** A tool error: isError, a code and a message a person can read (not Go's decoder). */
function toolError(r, code, what) {
  const b = body(r)
  expect(b.isError, `${what}: not an error: ${JSON.stringify(b).slice(0, 300)}`)
  expect(b.error && typeof b.error.message === 'string' && b.error.message.length > 10, `${what}: a message: ${JSON.stringify(b).slice(0, 300)}`)
  expect(!/cannot unmarshal|Go struct|json: |panic|runtime error|goroutine/.test(b.error.message), `${what}: Go words: ${b.error.message}`)
  if (code) expect(b.error.code === code, `${what}: code ${b.error.code}, want ${code}: ${b.error.message}`)
  expect(JSON.stringify(b).length < 8000, `${what}: the refusal is ${JSON.stringify(b).length} characters`)
  return b.error
}

/** A JSON-RPC error the SDK throws: McpError with its code, a message and the catalog code. */
async function rpcError(p, code, what, dataCode) {
  let err
  try {
    await p
  } catch (e) {
    err = e
  }
  expect(err instanceof McpError, `${what}: want a JSON-RPC error, got ${err ? err.stack : 'success'}`)
  expect(err.code === code, `${what}: code ${err.code}, want ${code}: ${err.message}`)
  expect(!/cannot unmarshal|Go struct|panic/.test(err.message), `${what}: Go words: ${err.message}`)
  if (dataCode) expect(err.data?.code === dataCode, `${what}: data.code ${JSON.stringify(err.data)}, want ${dataCode}`)
  return err
}

/** A client that records the server's notifications. */
function newClient(name) {
  const c = new Client({ name, version: '1.0.0' }, { capabilities: {} })
  c.notes = []
  c.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => void c.notes.push(n))
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void c.notes.push(n))
  c.fallbackNotificationHandler = async (n) => void c.notes.push(n)
  closers.push(() => c.close())
  return c
}

function stdio(home, args) {
  return new StdioClientTransport({ command: CLI, args: ['mcp', ...args], env: { ...process.env, ENGRAM_HOME: home }, stderr: 'pipe' })
}

function http(origin, token, opts = {}) {
  return new StreamableHTTPClientTransport(new URL(origin + '/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    // The GET stream comes back after a restart of `engram serve` (the SDK's default gives up
    // after two tries within about 2.5 s, less than a loaded machine may take to restart).
    reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 100 },
    ...opts,
  })
}

/**
 * Connects c over transport as a client of an older protocol version would: the SDK's own
 * request machinery with protocolVersion `version` in initialize (its Client always sends the
 * latest), then the version set on the transport (the HTTP header) and `initialized` sent.
 */
async function connectAs(c, transport, version) {
  await Protocol.prototype.connect.call(c, transport)
  const r = await c.request({ method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old-client', version: '0.1' } } }, InitializeResultSchema)
  c._serverCapabilities = r.capabilities
  c._serverVersion = r.serverInfo
  transport.setProtocolVersion?.(version)
  await c.notification({ method: 'notifications/initialized' })
  return r
}

const ajvStrict = new Ajv({ strict: true, allErrors: true })
const sdkValidator = new AjvJsonSchemaValidator()

/** Checks a tool's schemas as clients read them; returns a validator of its arguments. */
function checkSchemas(tool) {
  const sch = tool.inputSchema
  expect(sch && sch.type === 'object', `${tool.name}: inputSchema is an object schema`)
  let strict
  try {
    strict = ajvStrict.compile(sch)
  } catch (e) {
    throw new Error(`${tool.name}: ajv strict mode refuses its inputSchema: ${e.message}`)
  }
  sdkValidator.getValidator(sch)
  if (tool.outputSchema) {
    expect(tool.outputSchema.type === 'object', `${tool.name}: outputSchema is an object schema`)
    ajvStrict.compile(tool.outputSchema)
  }
  return (args) => {
    const ok = strict(args)
    return ok ? null : ajvStrict.errorsText(strict.errors)
  }
}

async function main() {
  const home = tempDir('engram-e2e-mcpts-')
  const work = tempDir('engram-e2e-mcpts-work-')
  const other = tempDir('engram-e2e-mcpts-other-')
  // Another project's memory and another agent's key: no session here may reach them.
  const foreign = JSON.parse(cli(CLI, home, ['write', '--json', '--scope', 'project', '--workdir', other, '--type', 'project', '--slug', 'other-secret', '--title', 'Other project secret', '--body', 'The other project deploys with Kubernetes on Fridays.', '--quote', 'deploys with Kubernetes', '--confidence', 'medium']))
  const foreignID = foreign.id ?? foreign.results?.[0]?.id ?? foreign.memory?.id
  expect(typeof foreignID === 'string', `the foreign memory's id: ${JSON.stringify(foreign)}`)
  cli(CLI, home, ['kv', 'set', '--agent', 'someone-else', 'secret', 'their value'])

  // ------------------------------------------------------------------ stdio
  const c = newClient('ts-held-out')
  await c.connect(stdio(home, ['--agent', 'ts-client', '--workdir', work]))
  const tools = new Map()
  const argCheck = new Map()

  await check('stdio: initialize negotiates the latest version, names the server and its capabilities', async () => {
    const v = c.getServerVersion()
    expect(v?.name === 'engram' && typeof v.version === 'string', `serverInfo: ${JSON.stringify(v)}`)
    const caps = c.getServerCapabilities()
    expect(caps?.tools && caps?.resources?.subscribe === true && caps.resources.listChanged === true, `capabilities: ${JSON.stringify(caps)}`)
    expect(typeof c.getInstructions() === 'string' && c.getInstructions().length > 0, 'instructions')
    // The Client refuses a version it does not know; the server answered the one it asked for.
    const r = await c.request({ method: 'ping' }, EmptyResultSchema)
    expect(r && typeof r === 'object', 'ping answers')
    const raw = stdio(home, ['--agent', 'ts-client', '--workdir', work])
    const probe = newClient('ts-probe')
    const init = await connectAs(probe, raw, LATEST_PROTOCOL_VERSION)
    expect(init.protocolVersion === LATEST_PROTOCOL_VERSION, `negotiated ${init.protocolVersion}, want ${LATEST_PROTOCOL_VERSION}`)
    await probe.close()
  })

  await check('stdio: every tool has a schema ajv compiles strictly, with annotations', async () => {
    const r = await c.listTools()
    expect(r.nextCursor === undefined, `one page of tools: ${r.nextCursor}`)
    for (const t of r.tools) {
      tools.set(t.name, t)
      argCheck.set(t.name, checkSchemas(t))
      expect(typeof t.description === 'string' && t.description.length > 10, `${t.name}: a description`)
      expect(t.annotations && typeof t.annotations.readOnlyHint === 'boolean', `${t.name}: annotations ${JSON.stringify(t.annotations)}`)
    }
    const want = ['memory_search', 'memory_read', 'memory_list', 'memory_overview', 'build_context', 'memory_write', 'memory_update', 'memory_delete', 'daily_append', 'observe_turn', 'graph_entities', 'graph_neighbors', 'graph_path', 'graph_subgraph', 'kv_get', 'kv_set', 'kv_delete', 'kv_list']
    for (const w of want) expect(tools.has(w), `tool ${w} listed (have ${[...tools.keys()]})`)
    await rpcError(c.listTools({ cursor: 'not-a-cursor' }), -32602, 'a tools/list cursor never handed out', 'mcp_invalid_cursor')
  })

  /** Calls a tool with args the schema accepts (checked first: the test itself is honest). */
  const call = async (name, args) => {
    const bad = argCheck.get(name)(args)
    expect(bad === null, `test bug: ${name} ${JSON.stringify(args)} does not fit its schema: ${bad}`)
    const r = await c.callTool({ name, arguments: args })
    const b = body(r)
    expect(!b.isError, `${name} ${JSON.stringify(args).slice(0, 200)} failed: ${JSON.stringify(b).slice(0, 600)}`)
    if (tools.get(name).outputSchema) expect(r.structuredContent && typeof r.structuredContent === 'object', `${name}: structuredContent`)
    return b
  }
  const called = new Set()
  const ok = async (name, args) => {
    called.add(name)
    return call(name, args)
  }

  let projID, globalID, projVersion
  await check('stdio: a valid call of every tool succeeds and reads back what it wrote', async () => {
    const w = await ok('memory_write', { slug: 'billing-stack', scope: 'project', type: 'project', title: 'Billing stack', body: 'Billing runs on Postgres.\n\n- [[Billing service]] uses [[Postgres]]\n- [[Acme]] owns [[Billing service]]\n', source_quote: 'billing runs on Postgres', confidence: 'medium', tags: ['billing'] })
    projID = w.id
    projVersion = w.version
    expect(typeof projID === 'string' && w.slug === 'billing-stack', `write: ${JSON.stringify(w)}`)
    const g = await ok('memory_write', { slug: 'likes-green-tea', scope: 'global', type: 'user', title: 'Likes green tea', body: 'Drinks green tea every morning.', source_quote: 'I drink green tea every morning', confidence: 'high' })
    globalID = g.id
    await ok('memory_write', { slug: 'my-notes', scope: 'agent', type: 'reference', title: 'Agent notes', body: 'The build uses make.' })
    const read = await ok('memory_read', { slug: 'billing-stack', scope: 'project' })
    expect(JSON.stringify(read).includes('Billing runs on Postgres'), `read: ${JSON.stringify(read).slice(0, 300)}`)
    expect(typeof read.untrusted_data === 'string', 'memory text comes marked as data')
    const byID = await ok('memory_read', { id: globalID })
    expect(JSON.stringify(byID).includes('green tea'), `read by id: ${JSON.stringify(byID).slice(0, 300)}`)
    const hits = await ok('memory_search', { query: 'green tea', limit: 5 })
    expect(JSON.stringify(hits).includes('likes-green-tea'), `search: ${JSON.stringify(hits).slice(0, 400)}`)
    expect(!JSON.stringify(await ok('memory_search', { query: 'Kubernetes' })).includes('other-secret'), 'search shows no other project')
    const ov = await ok('memory_overview', {})
    expect(JSON.stringify(ov).includes('Billing stack') && !JSON.stringify(ov).includes('Other project secret'), `overview: ${JSON.stringify(ov).slice(0, 400)}`)
    const ctx = await ok('build_context', { query: 'what does billing run on', max_tokens: 800 })
    expect(JSON.stringify(ctx).includes('Postgres'), `build_context: ${JSON.stringify(ctx).slice(0, 400)}`)
    const up = await ok('memory_update', { id: projID, expected_version: projVersion, title: 'Billing stack (Postgres 16)' })
    expect(up.version && up.version !== projVersion, `update: ${JSON.stringify(up)}`)
    const d = await ok('daily_append', { text: 'Looked at the billing stack with the TypeScript client.' })
    expect(JSON.stringify(d).length > 2, 'daily_append answers')
    // observe_turn: extraction may be off (no language model here); then a tool error that says so.
    called.add('observe_turn')
    const obs = body(await c.callTool({ name: 'observe_turn', arguments: { session_id: 'ts-1', messages: [{ role: 'user', content: 'I prefer tabs.' }, { role: 'assistant', content: 'Noted.' }] } }))
    if (obs.isError) toolError({ content: [{ type: 'text', text: JSON.stringify(obs) }], isError: true }, null, 'observe_turn')
    const ents = await until(async () => {
      const r = await ok('graph_entities', { query: 'Billing' })
      return JSON.stringify(r).includes('Billing service') ? r : null
    }, 'the graph knows Billing service')
    expect(typeof ents.untrusted_data === 'string', 'graph results come marked as data')
    const nb = await ok('graph_neighbors', { entity: 'Billing service', depth: 1 })
    expect(JSON.stringify(nb).includes('Postgres'), `neighbors: ${JSON.stringify(nb).slice(0, 400)}`)
    const p = await ok('graph_path', { from: 'Acme', to: 'Postgres', max_hops: 3 })
    expect(JSON.stringify(p).includes('Billing service'), `path: ${JSON.stringify(p).slice(0, 400)}`)
    const sg = await ok('graph_subgraph', { entity: 'Acme', depth: 2 })
    expect(JSON.stringify(sg).includes('Postgres'), `subgraph: ${JSON.stringify(sg).slice(0, 400)}`)
    await ok('kv_set', { key: 'editor', value: { name: 'neovim', tabs: false } })
    await ok('kv_set', { key: 'count', value: 3 })
    const kv = await ok('kv_get', { key: 'editor' })
    expect(kv.value?.name === 'neovim', `kv_get: ${JSON.stringify(kv)}`)
    const lst = await ok('kv_list', { limit: 1 })
    expect(typeof lst.next_cursor === 'string', `kv_list pages: ${JSON.stringify(lst)}`)
    const lst2 = await ok('kv_list', { limit: 1, cursor: lst.next_cursor })
    expect(JSON.stringify(lst2) !== JSON.stringify(lst), 'the second kv page differs')
    expect((await ok('kv_delete', { key: 'count' })).deleted === true, 'kv_delete')
    const l1 = await ok('memory_list', { limit: 1 })
    expect(typeof l1.next_cursor === 'string', `memory_list pages: ${JSON.stringify(l1).slice(0, 300)}`)
    const l2 = await ok('memory_list', { limit: 1, cursor: l1.next_cursor })
    expect(JSON.stringify(l2) !== JSON.stringify(l1), 'the second memory page differs')
    await ok('memory_write', { slug: 'scratch', scope: 'project', type: 'reference', title: 'Scratch', body: 'To be deleted.' })
    await ok('memory_delete', { slug: 'scratch', scope: 'project' })
    for (const t of tools.keys()) expect(called.has(t), `tool ${t} was called`)
  })

  await check('stdio: hostile arguments are tool or JSON-RPC errors that say what is wrong', async () => {
    const big = 'x'.repeat(300_000)
    const cases = [
      ['memory_search', { query: 42 }, null],
      ['memory_search', { query: 'tea', limit: 'many' }, null],
      ['memory_search', { query: 'tea', limit: 100000 }, 'mcp_argument_out_of_range'],
      ['memory_search', { query: 'tea', scope: 'everything' }, 'mcp_argument_not_allowed'],
      ['memory_search', { query: 'tea', Limit: 3 }, null],
      ['memory_read', { slug: '../../../etc/passwd', scope: 'global' }, null],
      ['memory_read', { id: foreignID }, null],
      ['memory_read', { slug: 'other-secret', scope: 'project', workdir: other }, 'workdir_not_allowed'],
      ['memory_list', { workdir: path.join(work, '..', path.basename(other)) }, 'workdir_not_allowed'],
      ['memory_list', { workdir: '/etc' }, 'workdir_not_allowed'],
      ['memory_write', { slug: '../escape', scope: 'global', type: 'user', title: 'x', body: 'y' }, null],
      ['memory_write', { slug: 'big', scope: 'global', type: 'user', title: 'x', body: big }, null],
      ['memory_write', { slug: big, scope: 'global', type: 'user', title: 'x', body: 'y' }, null],
      ['memory_write', { slug: 'ok-slug', scope: 'global', type: 'daily', title: 'x', body: 'y' }, null],
      ['memory_update', { id: foreignID, title: 'mine now' }, null],
      ['memory_update', { id: projID, expected_version: 'stale', title: 'race' }, null],
      ['memory_delete', { id: foreignID }, null],
      ['memory_delete', { slug: 'billing-stac', scope: 'project' }, 'not_found'],
      ['memory_update', { slug: 'billing-stac', scope: 'project', body: 'Overwritten.' }, 'not_found'],
      ['daily_append', { text: 'y'.repeat(3000) }, 'daily_entry_too_long'],
      ['daily_append', { text: 'bell\u0007' }, 'control_character'],
      ['kv_get', { key: 'secret' }, null],
      ['kv_set', { key: 'n', value: null }, null],
      ['kv_set', { key: 'big', value: 'z'.repeat(70 * 1024) }, null],
      ['graph_neighbors', { entity: 'Billing service', depth: 9 }, 'mcp_argument_out_of_range'],
      ['graph_entities', { types: ['people'] }, 'mcp_argument_not_allowed'],
      ['observe_turn', { messages: [] }, null],
      ['memory_search', {}, null],
    ]
    // Some fit the schema and do harm by their values (another project's id, a path, a size);
    // the others do not fit it, as a model's calls often do not.
    for (const [name, args, code] of cases) {
      const what = `${name} ${JSON.stringify(args).slice(0, 80)}`
      let r
      try {
        r = await c.callTool({ name, arguments: args })
      } catch (e) {
        expect(e instanceof McpError && /\w{4}/.test(e.message), `${what}: ${e.stack}`)
        if (process.env.MCPTS_DEBUG) log(`${what} -> RPC ${e.code} ${e.message.slice(0, 300)}`)
        continue
      }
      const e = toolError(r, code, what)
      // A model makes the suggested call as given: it must fit the tool's schema (memory_write's
      // suggestions left out its required body, type or title and failed again).
      const next = e.suggested_next_call
      if (next) {
        expect(argCheck.has(next.tool), `${what}: suggests the unknown tool ${next.tool}`)
        const unfit = argCheck.get(next.tool)(next.arguments)
        expect(unfit === null, `${what}: the suggested ${next.tool} ${JSON.stringify(next.arguments).slice(0, 200)} does not fit its schema: ${unfit}`)
        // A miss is answered with the nearest memory, a guess: never a call that changes or removes it.
        if (e.code === 'not_found') expect(tools.get(next.tool).annotations.readOnlyHint === true, `${what}: suggests ${next.tool} ${JSON.stringify(next.arguments)} on a memory it did not name`)
      }
      if (process.env.MCPTS_DEBUG) log(`${what} -> ${JSON.stringify(e).slice(0, 400)}`)
      expect(!JSON.stringify(e).includes('Kubernetes') && !JSON.stringify(e).includes('their value'), `${what}: the refusal leaks the foreign data`)
    }
    await rpcError(c.callTool({ name: 'no_such_tool', arguments: {} }), -32602, 'an unknown tool', 'mcp_unknown_tool')
    // Nothing foreign was touched, and the server still answers.
    expect(cli(CLI, home, ['show', '--workdir', other, 'other-secret']).includes('Kubernetes'), 'the other project memory is intact')
    expect(cli(CLI, home, ['kv', 'get', '--agent', 'someone-else', 'secret']).includes('their value'), "the other agent's key is intact")
    await c.ping()
  })

  await check('stdio: resources, templates, subscriptions and their notifications', async () => {
    const r = await c.listResources()
    const uris = r.resources.map((x) => x.uri)
    expect(uris.includes('engram://index') && uris.includes(`engram://memory/${projID}`), `resources: ${uris}`)
    expect(!uris.includes(`engram://memory/${foreignID}`), 'no foreign memory among the resources')
    const idx = await c.readResource({ uri: 'engram://index' })
    expect(idx.contents[0].text.includes('Billing stack'), 'the index lists the memory')
    const m = await c.readResource({ uri: `engram://memory/${globalID}` })
    expect(m.contents[0].text.includes('green tea') && m.contents[0].mimeType === 'text/markdown', 'the memory resource')
    const tpl = await c.listResourceTemplates()
    expect(tpl.resourceTemplates.some((t) => t.uriTemplate === 'engram://memory/{id}'), 'the memory template')
    await rpcError(c.readResource({ uri: `engram://memory/${foreignID}` }), -32602, 'a foreign memory resource', 'mcp_resource_not_found')
    await rpcError(c.readResource({ uri: 'file:///etc/passwd' }), -32602, 'a file resource', 'mcp_resource_not_found')
    await rpcError(c.subscribeResource({ uri: `engram://memory/${foreignID}` }), -32602, 'subscribing to a foreign memory')
    await rpcError(c.request({ method: 'resources/list', params: { cursor: 'bogus' } }, ListResourcesResultSchema), -32602, 'a resources/list cursor never handed out', 'mcp_invalid_cursor')
    await c.subscribeResource({ uri: 'engram://index' })
    await c.subscribeResource({ uri: `engram://memory/${globalID}` })
    c.notes.length = 0
    // Another process (the CLI) changes the subscribed memory.
    cli(CLI, home, ['update', 'likes-green-tea', '--scope', 'global', '--body', 'Drinks green tea twice a day.'])
    await until(() => c.notes.some((n) => n.method === 'notifications/resources/list_changed'), 'resources/list_changed')
    await until(() => c.notes.some((n) => n.method === 'notifications/resources/updated' && n.params.uri === `engram://memory/${globalID}`), 'resources/updated of the memory')
    await until(() => c.notes.some((n) => n.method === 'notifications/resources/updated' && n.params.uri === 'engram://index'), 'resources/updated of the index')
    await c.unsubscribeResource({ uri: `engram://memory/${globalID}` })
    // More memories than one page holds: the cursors walk every one of them once.
    for (let i = 0; i < 55; i++) await call('memory_write', { slug: `note-${i}`, scope: 'agent', type: 'reference', title: `Note ${i}`, body: `Note number ${i}.` })
    const seen = []
    let cursor
    let pages = 0
    do {
      const page = await c.listResources(cursor ? { cursor } : undefined)
      seen.push(...page.resources)
      cursor = page.nextCursor
      pages++
    } while (cursor && pages < 20)
    const listed = new Set(seen.map((x) => x.uri))
    expect(pages >= 2 && listed.size === seen.length, `${pages} pages, ${seen.length} resources, ${listed.size} distinct`)
    for (let i = 0; i < 55; i++) expect(seen.some((x) => x.name === `note-${i}`), `note-${i} listed`)
  })

  await check('stdio: prompts (none offered) and logging levels are answered in words', async () => {
    const p = await c.listPrompts()
    expect(Array.isArray(p.prompts), 'prompts/list answers a list')
    await rpcError(c.getPrompt({ name: 'summarize' }), -32602, 'an unknown prompt', 'mcp_unknown_prompt')
    await c.setLoggingLevel('info')
    await rpcError(c.request({ method: 'logging/setLevel', params: { level: 'loud' } }, EmptyResultSchema), -32602, 'a level that is none', 'mcp_log_level_invalid')
  })

  const oldStdio = async (version) => {
    {
      const old = newClient('old-client')
      const init = await connectAs(old, stdio(home, ['--agent', 'old-client', '--workdir', work]), version)
      expect(init.protocolVersion === version, `negotiated ${init.protocolVersion}, want ${version}`)
      const t = await old.listTools()
      expect(t.tools.length === tools.size, `${t.tools.length} tools`)
      const r = body(await old.callTool({ name: 'memory_search', arguments: { query: 'billing' } }))
      expect(!r.isError && JSON.stringify(r).includes('billing-stack'), `search: ${JSON.stringify(r).slice(0, 300)}`)
      await old.close()
    }
  }
  await check('stdio: a 2024-11-05 client still works', () => oldStdio('2024-11-05'))
  await check('stdio: a 2025-03-26 client still works', () => oldStdio('2025-03-26'))
  await c.close()

  // ------------------------------------------------------------------ HTTP
  const srv = new Server(CLI, home)
  let info = await srv.start()
  const addr = `127.0.0.1:${info.port}`

  await check('http: a wrong token, or one in the URL, is refused with 401 saying how to send it', async () => {
    for (const [t, url] of [
      [http(info.origin, 'wrong-token'), null],
      [new StreamableHTTPClientTransport(new URL(`${info.origin}/mcp?token=${encodeURIComponent(info.token)}`)), 'url'],
    ]) {
      const bad = newClient('intruder')
      let err
      try {
        await bad.connect(t)
      } catch (e) {
        err = e
      }
      expect(err instanceof StreamableHTTPError && err.code === 401, `${url ?? 'wrong'} token: ${err?.stack ?? 'accepted'}`)
      expect(/mcp_unauthorized/.test(err.message) && /Authorization: Bearer/.test(err.message), `the refusal says how: ${err.message}`)
    }
  })

  const h = newClient('TS Held Out')
  const ht = http(info.origin, info.token)
  await h.connect(ht)
  await check('http: initialize, tools, the agent named by the client, and notifications on the stream', async () => {
    expect(ht.protocolVersion === LATEST_PROTOCOL_VERSION && typeof ht.sessionId === 'string', `version ${ht.protocolVersion}, session ${ht.sessionId}`)
    expect(h.getServerVersion()?.name === 'engram', 'serverInfo')
    const t = await h.listTools()
    expect(t.tools.length === tools.size, `${t.tools.length} tools`)
    for (const tool of t.tools) checkSchemas(tool)
    const set = body(await h.callTool({ name: 'kv_set', arguments: { key: 'resume', value: 'before restart' } }))
    expect(!set.isError && set.agent === 'ts-held-out', `kv_set as the client's name: ${JSON.stringify(set)}`)
    const foreignRead = body(await h.callTool({ name: 'kv_get', arguments: { key: 'secret' } }))
    expect(foreignRead.isError && !JSON.stringify(foreignRead).includes('their value'), "another agent's key stays out of reach")
    await h.subscribeResource({ uri: 'engram://index' })
    h.notes.length = 0
    cli(CLI, home, ['write', '--scope', 'global', '--type', 'user', '--slug', 'likes-rust', '--title', 'Likes Rust', '--body', 'Writes Rust on weekends.'])
    await until(() => h.notes.some((n) => n.method === 'notifications/resources/list_changed'), 'list_changed over the event stream')
    await until(() => h.notes.some((n) => n.method === 'notifications/resources/updated' && n.params.uri === 'engram://index'), 'the index updated over the event stream')
  })

  await check('http: the session goes on after engram serve restarts', async () => {
    await srv.stop()
    info = await srv.start(addr)
    const r = body(await h.callTool({ name: 'kv_get', arguments: { key: 'resume' } }))
    expect(!r.isError && r.value === 'before restart' && r.agent === 'ts-held-out', `after the restart: ${JSON.stringify(r)}`)
    const s2 = body(await h.callTool({ name: 'memory_search', arguments: { query: 'Rust' } }))
    expect(!s2.isError && JSON.stringify(s2).includes('likes-rust'), `search after the restart: ${JSON.stringify(s2).slice(0, 300)}`)
    h.notes.length = 0
    cli(CLI, home, ['write', '--scope', 'global', '--type', 'user', '--slug', 'likes-go', '--title', 'Likes Go', '--body', 'Writes Go at work.'])
    await until(() => h.notes.some((n) => n.method === 'notifications/resources/list_changed'), 'list_changed on the stream after the restart')
  })

  await check('http: a session its client ended is gone (404), and a new one starts', async () => {
    const sid = ht.sessionId
    await ht.terminateSession()
    const res = await fetch(`${info.origin}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${info.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(res.status === 404, `status ${res.status}`)
    expect((await res.json()).code === 'mcp_session_not_found', 'coded 404')
    await h.close()
    const again = newClient('TS Held Out')
    await again.connect(http(info.origin, info.token))
    expect(body(await again.callTool({ name: 'kv_get', arguments: { key: 'resume' } })).value === 'before restart', 'a new session of the same agent')
    await again.close()
  })

  const oldHTTP = async (version) => {
    {
      const old = newClient('old-client')
      const t = http(info.origin, info.token)
      const init = await connectAs(old, t, version)
      expect(init.protocolVersion === version, `negotiated ${init.protocolVersion}, want ${version}`)
      expect((await old.listTools()).tools.length === tools.size, 'tools listed')
      const r = body(await old.callTool({ name: 'memory_read', arguments: { slug: 'likes-rust', scope: 'global' } }))
      expect(!r.isError && JSON.stringify(r).includes('Rust'), `read: ${JSON.stringify(r).slice(0, 300)}`)
      await old.close()
    }
  }
  await check('http: a 2024-11-05 client still works', () => oldHTTP('2024-11-05'))
  await check('http: a 2025-03-26 client still works', () => oldHTTP('2025-03-26'))
  await srv.stop()
  log('done')
}

await s.run(async () => {
  try {
    await main()
  } finally {
    for (const f of closers.reverse()) await f().catch(() => {})
  }
})
