// The page's entry: the interactive page, or one of the suites the tests and the benchmark open
// by the query (`?selftest`, `?apitest`, `?framegap`, `?bench`). Each suite imports the package
// (and the page where it measures the page); nothing imports this file.
import { $, showControls, start, watch, solveLp, showError, state, draw } from './page.js';

const params = new URLSearchParams(location.search);
const suites = { selftest: './selftest.js', apitest: './apitest.js', framegap: './framegap.js', bench: './bench.js' };
const suite = Object.keys(suites).find((k) => params.has(k));

if (suite) {
  import(suites[suite]).then((s) => s.run(params));
} else {
  const worker = params.get('mode') !== 'main';
  start({ worker }).then(async () => {
    if (!params.has('show')) return;
    // ?show=cholesky&variant=blocked-16&m=64&pass=40: a run stopped at a pass (for screenshots);
    // &find=NAME the first pass of that name from &pass on; &lp=M also solves the random LP with
    // M rows in the LP panel.
    for (const key of ['variant', 'm', 'n', 'seed']) if (params.has(key)) $(key).value = params.get(key);
    $('algorithm').value = params.get('show');
    $('packed').checked = params.has('packed');
    showControls();
    const recording = await watch();
    state.k = Number(params.get('pass') ?? 0);
    const find = params.get('find');
    while (find && state.k < recording.length - 1 && recording.passes[state.k].name !== find) state.k += 1;
    await draw();
    if (params.has('lp')) { $('lp-m').value = params.get('lp'); await solveLp(); }
    document.title += ' — ready';
  }).catch((e) => showError(e.code ? `${e.message} [${e.code}]` : String(e)));
}
