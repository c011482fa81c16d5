// The docs' pictures of the page: `bash web/build.sh && (cd web && npm ci && node screenshots.mjs)`.
// Serves the page with `glsolve web`, opens it in the system's headless Chromium (ANGLE on Mesa's
// EGL) through playwright-core, runs each algorithm to a chosen pass as a visitor would (the
// `?show` URL fills the controls and presses Watch) and writes docs/pictures/browser_*.png.
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = [
  ['browser_cholesky_blocked.png', 'show=cholesky&variant=blocked-16&m=64&pass=7'],
  ['browser_cholesky_triangle.png', 'show=cholesky&variant=triangle-pair&m=24&pass=44'],
  ['browser_lp_iteration.png', 'show=lp&variant=blocked-16&m=32&pass=400&find=block_update&lp=32'],
];

const server = spawn('cargo', ['run', '--release', '--quiet', '--', 'web', '--port', '0', '--root', root], { cwd: root });
const url = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).on('line', (l) => l.startsWith('serving ') && resolve(l.split(' ')[1]));
  server.on('exit', (c) => reject(new Error(`glsolve web exited (${c})`)));
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
    '--no-first-run', '--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'],
});
try {
  for (const [file, query] of SHOTS) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e) => console.error(`${file}: ${e.message}`));
    await page.goto(`${url}?${query}`);
    await page.waitForFunction(() => document.title.endsWith('ready') || !document.getElementById('error').hidden, null, { timeout: 300000 });
    const error = await page.textContent('#error');
    if (error) throw new Error(`${file}: the page says: ${error}`);
    await page.screenshot({ path: join(root, 'docs/pictures', file), fullPage: true });
    console.log(`wrote docs/pictures/${file}: ${await page.textContent('#pass-info')}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
