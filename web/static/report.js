// What every suite shares: fetching the repository's fixtures and posting the report to
// `glsolve web`, which prints it for the test runner — or, where the page is served by a plain
// static server (the folder `web/build.sh --site` writes), to the collector `?report=URL` names.

/** The text at `url`, relative to the page (`glsolve web` serves tests/data as data/). */
export async function text(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.text();
}

/** name → the optimal objective with the file's objective constant, from optimal.tsv. */
export async function optima() {
  const rows = (await text('data/netlib/optimal.tsv')).trim().split('\n').slice(1);
  return new Map(rows.map((r) => { const f = r.split('\t'); return [f[0], Number(f[4]) + Number(f[5])]; }));
}

/** Posts `report` to `?report=` (default /report); the page's title then says so. */
export async function post(report, title) {
  const to = new URLSearchParams(location.search).get('report') ?? '/report';
  await fetch(to, { method: 'POST', body: JSON.stringify(report) });
  document.title = `${title}: reported`;
}

/** `e` as something a report can hold. */
export const described = (e) => (e && e.code ? { code: e.code, message: e.message } : { code: null, message: String(e?.message ?? e) });
