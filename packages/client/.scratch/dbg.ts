import { fileURLToPath } from 'node:url';
import { bundleForBrowser, launchChromium, openTestPage, startXServe } from '@x/browser-testing';
const KEY='k';
const agent = { llm: { model: 'offline' }, tools: [], x_offline_script: [{ content: 'first answer' }, { content: 'second answer' }] };
const [browser, server, { code: script }] = await Promise.all([launchChromium(), startXServe({ apiKey: KEY }),
  bundleForBrowser({ entry: fileURLToPath(new URL('../test/fixtures/client-page.ts', import.meta.url)) })]);
const { page, problems, gate, close } = await openTestPage(browser, { origin: server.url, html: '<!doctype html><html><body><script type="module" src="./page.js"></script></body></html>', script });
page.on('console', (m) => console.log('console:', m.text())); page.on('request', r => console.log('req', Date.now(), r.method(), r.url())); page.on('requestfinished', r => console.log('done', Date.now(), r.url()));
page.on('websocket', (ws) => { console.log('ws', ws.url()); ws.on('framereceived', f => { const j = JSON.parse(String(f.payload)); console.log('recv', Date.now(), j.kind, j.key, typeof j.value === 'object' ? j.value?.execution_status : j.value); }); ws.on('framesent', f => console.log('sent', String(f.payload).slice(0,100))); ws.on('close', () => console.log('ws closed')); });
await page.goto(`${server.url}/__test__/`);
await page.waitForFunction(() => 'xTest' in window);
const timer = setTimeout(async () => { console.log('TIMEOUT', problems, server.output.slice(-3000)); process.exit(1); }, 30000);
try {
const id = await page.evaluate(([key, body]) => (window as any).xTest.createAndRun(key, body, 'hello'), [KEY, agent] as const);
console.log('id', id);
} catch (e) { console.log('ERR', e); }
clearTimeout(timer);
console.log(problems);
await close(); await browser.close(); await server.stop();
