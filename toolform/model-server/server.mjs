// A small OpenAI-compatible server over llama.cpp (node-llama-cpp's prebuilt CPU
// binary), for ToolForm's tests and demo: POST /v1/chat/completions (with token
// usage) and GET /v1/models. It is ours rather than llama-cpp-python's server
// because that one is a source build of several minutes on every clean CI run;
// this one installs from npm in seconds. It is not a general server: one model,
// one request evaluated at a time (the others wait in order), greedy sampling,
// no streaming, no tool-call extraction (ToolForm reads calls from the text).
//
// Usage: node server.mjs --model FILE [--host 127.0.0.1] [--port 8766]
//        [--threads 1] [--context 4096] [--name ID]
// Prints "listening on http://HOST:PORT/v1" on stdout once the model is loaded,
// logs on stderr, and stops on SIGINT or SIGTERM.

import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { getLlama, LlamaLogLevel, resolveChatWrapper } from "node-llama-cpp";

const { values: options } = parseArgs({
  options: {
    model: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8766" },
    threads: { type: "string", default: "1" },
    context: { type: "string", default: "4096" },
    name: { type: "string" },
  },
});
if (!options.model) {
  console.error("error: --model FILE is required (make model-serve fetches it)");
  process.exit(2);
}
const modelName = options.name ?? path.basename(options.model, ".gguf");
// The most a reply may be, whatever a request asks: the context must hold the prompt too.
const MAX_TOKENS_CAP = 2048;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

// build "never": use the prebuilt binary or fail, never a source build at run time.
const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: options.model });
const threads = Number(options.threads);
const context = await model.createContext({
  contextSize: Number(options.context),
  sequences: 1,
  threads: { ideal: threads, min: threads },
});
const sequence = context.getSequence();
const chatWrapper = resolveChatWrapper(model);

// One evaluation at a time on the one sequence: requests queue on this promise.
let queue = Promise.resolve();

class RequestError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function chatHistory(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new RequestError(400, "$.messages must be a non-empty list of {role, content}");
  }
  return messages.map((message, index) => {
    const where = `$.messages[${index}]`;
    if (message === null || typeof message !== "object") throw new RequestError(400, `${where} must be an object`);
    const text = typeof message.content === "string" ? message.content
      : Array.isArray(message.content) ? message.content.map((part) => part?.text ?? "").join("") : null;
    if (text === null) throw new RequestError(400, `${where}.content must be a string or a list of text parts`);
    switch (message.role) {
      case "system": return { type: "system", text };
      case "user": case "tool": return { type: "user", text };
      case "assistant": return { type: "model", response: [text] };
      default: throw new RequestError(400, `${where}.role must be system, user, assistant or tool`);
    }
  });
}

function commonPrefix(a, b) {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index++;
  return index;
}

// Greedy generation from the prompt; the part of the prompt the sequence already
// holds (the same system prompt, request after request) is not evaluated again.
async function complete(history, maxTokens) {
  const { contextText } = chatWrapper.generateContextState({ chatHistory: history });
  const promptTokens = contextText.tokenize(model.tokenizer);
  if (promptTokens.length + maxTokens > context.contextSize) {
    throw new RequestError(400, `the prompt is ${promptTokens.length} tokens; with max_tokens ${maxTokens} it ` +
      `exceeds the context of ${context.contextSize} (start the server with a larger --context)`);
  }
  // Keep at least one token to evaluate: generation needs the logits of the prompt's last token.
  const kept = Math.min(commonPrefix(sequence.contextTokens, promptTokens), promptTokens.length - 1);
  if (kept < sequence.nextTokenIndex) {
    await sequence.eraseContextTokenRanges([{ start: kept, end: sequence.nextTokenIndex }]);
  }
  const generated = [];
  // The evaluation ends by itself at an end-of-generation token; "length" only when max_tokens cut it.
  let finishReason = "stop";
  if (maxTokens > 0) {
    for await (const token of sequence.evaluate(promptTokens.slice(kept), { temperature: 0 })) {
      if (model.isEogToken(token)) break;
      generated.push(token);
      if (generated.length >= maxTokens) {
        finishReason = "length";
        break;
      }
    }
  } else {
    finishReason = "length";
  }
  return { text: model.detokenize(generated), promptTokens: promptTokens.length, completionTokens: generated.length,
    finishReason };
}

function send(response, status, body) {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { "content-type": "application/json", "content-length": bytes.length });
  response.end(bytes);
}

function sendError(response, status, message) {
  send(response, status, { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error" } });
}

async function readJson(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RequestError(413, `the body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    throw new RequestError(400, `the body is not JSON: ${error.message}`);
  }
}

let served = 0;

async function chatCompletion(body) {
  if (body === null || typeof body !== "object") throw new RequestError(400, "the body must be a JSON object");
  if (body.stream === true) throw new RequestError(400, "stream is not supported by this server; send stream: false");
  const history = chatHistory(body.messages);
  const asked = body.max_completion_tokens ?? body.max_tokens ?? 512;
  if (!Number.isInteger(asked) || asked < 0) throw new RequestError(400, "$.max_tokens must be a whole number >= 0");
  const maxTokens = Math.min(asked, MAX_TOKENS_CAP);
  const result = await (queue = queue.then(() => complete(history, maxTokens), () => complete(history, maxTokens)));
  served += 1;
  return {
    id: `chatcmpl-${served}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: modelName,
    choices: [{ index: 0, message: { role: "assistant", content: result.text }, finish_reason: result.finishReason }],
    usage: {
      prompt_tokens: result.promptTokens,
      completion_tokens: result.completionTokens,
      total_tokens: result.promptTokens + result.completionTokens,
    },
  };
}

const server = http.createServer(async (request, response) => {
  try {
    const url = new URL(request.url, "http://localhost");
    const route = url.pathname.replace(/\/+$/, "");
    if (request.method === "GET" && route === "/v1/models") {
      send(response, 200, { object: "list", data: [{ id: modelName, object: "model", owned_by: "local" }] });
    } else if (request.method === "POST" && route === "/v1/chat/completions") {
      send(response, 200, await chatCompletion(await readJson(request)));
    } else {
      sendError(response, 404, `no route ${request.method} ${url.pathname}; this server has GET /v1/models and ` +
        "POST /v1/chat/completions");
    }
  } catch (error) {
    if (error instanceof RequestError) {
      sendError(response, error.status, error.message);
    } else {
      console.error(error);
      sendError(response, 500, `the model failed: ${error?.message ?? error}`);
    }
  }
});

server.listen(Number(options.port), options.host, () => {
  const { port } = server.address();
  console.error(`model ${modelName} from ${options.model}, ${threads} thread(s), context ${context.contextSize}`);
  console.log(`listening on http://${options.host}:${port}/v1`);
});

async function stop() {
  server.close();
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
