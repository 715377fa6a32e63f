// client.mjs drives `wisp mcp` with the TypeScript MCP SDK's own client, a
// client this project did not write, for mcp's tests (mcp/client_test.go).
//
//   node client.mjs WISP SCENARIO [JSON]
//
// It starts `WISP mcp` as its server over stdio, in this process's working
// directory and environment, plays SCENARIO with the JSON's arguments, and
// prints one JSON report on stdout. Everything else goes to stderr.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [wisp, scenario, json] = process.argv.slice(2);
const args = JSON.parse(json ?? '{}') ?? {};

const scenarios = { tools, run, cancel, disconnect, outOfBandFirst };

// connect starts wisp mcp. With elicit, the client declares form
// elicitation and answers each question with answer(params, signal).
// Every elicitation request is also kept as it came on the wire, before
// the SDK's parsing drops what its schema does not name (the title).
async function connect(answer) {
  const transport = new StdioClientTransport({
    command: wisp, args: ['mcp', ...(args.flags ?? [])],
    env: process.env, cwd: process.cwd(), stderr: 'inherit',
  });
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'wisp-mcp-test', version: '1.0.0' }, { capabilities });
  const wire = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => answer(request.params, extra.signal));
  }
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.method === 'elicitation/create') wire.push(message.params);
    deliver(message, extra);
  };
  return { client, transport, wire };
}

function text(result) {
  return { text: result.content.map(c => c.text).join('\n'), isError: result.isError ?? false };
}

// tools: the server's name and version, and its tools as listed.
async function tools() {
  const { client } = await connect();
  const listed = await client.listTools();
  const report = { server: client.getServerVersion(), instructions: client.getInstructions(), tools: listed.tools };
  await client.close();
  return report;
}

// run: call each of args.calls in turn; with args.answers, answer the
// elicitations in order ({action, content}), the last one repeating.
async function run() {
  let asked = 0;
  const answer = args.answers && (async () => args.answers[Math.min(asked++, args.answers.length - 1)]);
  const { client, wire } = await connect(answer);
  const results = [];
  for (const call of args.calls) {
    results.push(text(await client.callTool(call)));
  }
  await client.close();
  return { results, elicitations: wire };
}

// cancel: start args.call, wait until args.processes processes carry
// args.marker, cancel the call, then show the session still serves.
async function cancel() {
  const { client } = await connect();
  const abort = new AbortController();
  const call = client.callTool(args.call, undefined, { signal: abort.signal });
  const seen = await until(() => markerPids(args.marker).length >= args.processes);
  abort.abort('the test cancels the call');
  const cancelled = await call.then(() => 'the call finished', err => String(err));
  const after = text(await client.callTool({ name: 'run_command', arguments: { command: 'echo still serving' } }));
  await client.close();
  return { seen, cancelled, after };
}

// disconnect: start args.calls, wait until the marker's processes run and
// args.pendingFiles requests wait in args.pendingDir, then exit without a
// word to the server: its stdin simply ends.
async function disconnect() {
  const { client, transport } = await connect();
  for (const call of args.calls) {
    client.callTool(call).catch(() => {});
  }
  const seen = await until(() => markerPids(args.marker).length >= args.processes &&
    requests(args.pendingDir).length >= args.pendingFiles);
  report({ seen, pid: transport.pid, pids: markerPids(args.marker), pending: requests(args.pendingDir) });
  process.exit(0);
}

// outOfBandFirst: the client shows the question and never answers; the
// person answers in the pending channel instead (`wisp approvals
// approve`), and the client's question is withdrawn.
async function outOfBandFirst() {
  let withdrawn;
  const gone = new Promise(resolve => { withdrawn = resolve; });
  const answer = (params, signal) => new Promise((_, reject) => {
    signal.addEventListener('abort', () => { withdrawn(true); reject(new Error('withdrawn')); });
  });
  const { client, wire } = await connect(answer);
  const call = client.callTool(args.call);
  await until(() => wire.length === 1 && requests(args.pendingDir).length === 1);
  const id = requests(args.pendingDir)[0].replace('.request.json', '');
  const approved = execFileSync(wisp, ['approvals', 'approve', id], { encoding: 'utf8' });
  const result = text(await call);
  const elicitationWithdrawn = await Promise.race([gone, sleep(10000, { unref: true }).then(() => false)]);
  await client.close();
  return { approved, result, elicitationWithdrawn, elicitations: wire };
}

function requests(dir) {
  return readdirSync(dir).filter(f => f.endsWith('.request.json'));
}

// markerPids lists the processes whose command line holds marker, but
// this one (its arguments hold it too). A dead process's is empty.
function markerPids(marker) {
  const pids = [];
  for (const pid of readdirSync('/proc').filter(p => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

// until polls ok for up to 30 s: the scenarios wait for real processes.
async function until(ok) {
  for (const deadline = Date.now() + 30000; Date.now() < deadline; await sleep(20)) {
    if (ok()) return true;
  }
  return false;
}

// sleep waits ms; an unref'd sleep does not keep node running.
function sleep(ms, { unref = false } = {}) {
  return new Promise(resolve => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });
}

function report(value) {
  process.stdout.write(JSON.stringify(value) + '\n');
}

if (!scenarios[scenario]) {
  console.error(`client.mjs: no scenario ${scenario}; the scenarios are ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
report(await scenarios[scenario]());
