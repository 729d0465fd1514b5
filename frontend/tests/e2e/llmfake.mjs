// The one stand-in of the end-to-end tests: a loopback OpenAI-compatible server (the wire of
// POST /v1/chat/completions, plain JSON or server-sent events with a usage chunk and [DONE]),
// the way Ollama or vLLM answers on this computer. It records what it was sent.
import http from 'node:http'

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
