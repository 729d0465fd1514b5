// The one stand-in of the end-to-end tests: a loopback OpenAI-compatible server (the wire of
// POST /v1/chat/completions, plain JSON or server-sent events with a usage chunk and [DONE], and
// POST /v1/embeddings),
// the way Ollama or vLLM answers on this computer. It records what it was sent.
import http from 'node:http'

// wordVector hashes each word into one of 32 buckets: texts sharing words are near.
function wordVector(text) {
  const v = new Array(32).fill(0)
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    let h = 0
    for (const c of w) h = (h * 31 + c.codePointAt(0)) >>> 0
    v[h % 32] += 1
  }
  return v
}

export async function startOpenAI(reply = 'pong') {
  const requests = []
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      let body = {}
      try {
        body = JSON.parse(raw)
      } catch {
        /* recorded as {} */
      }
      requests.push({ path: req.url, headers: req.headers, body })
      if (req.method === 'POST' && req.url === '/v1/embeddings') {
        // OpenAI's embeddings wire: one vector per input, in order, from the words it holds.
        const inputs = Array.isArray(body.input) ? body.input : [body.input]
        const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: wordVector(String(text)) }))
        res.writeHead(200, { 'Content-Type': 'application/json' })
        return res.end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }))
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'Content-Type': 'application/json' })
        return res.end(JSON.stringify({ error: { message: 'no such endpoint', type: 'invalid_request_error' } }))
      }
      const id = `chatcmpl-${requests.length}`
      const created = Math.floor(Date.now() / 1000)
      const usage = { prompt_tokens: 14, completion_tokens: 2, total_tokens: 16 }
      if (!body.stream) {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        return res.end(
          JSON.stringify({
            id, object: 'chat.completion', created, model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
            usage,
          }),
        )
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      const chunk = (delta, finish) => ({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })
      const send = (d) => res.write(`data: ${typeof d === 'string' ? d : JSON.stringify(d)}\n\n`)
      send(chunk({ role: 'assistant', content: '' }, null))
      send(chunk({ content: reply.slice(0, 2) }, null))
      send(chunk({ content: reply.slice(2) }, null))
      send(chunk({}, 'stop'))
      if (body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })
      send('[DONE]')
      res.end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((r) => server.close(r)) }
}
