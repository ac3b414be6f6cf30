// The dashboard's HTML: a static shell with no data and no script of its own (its script and
// style are files of the same origin), so it may load without the admin token.
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Profile Article Service mock</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/_mock/dashboard.css">
<script src="/_mock/dashboard.js" defer></script></head>
<body>
<header>
  <h1>Profile Article Service mock</h1>
  <p class="bar"><span id="live" class="off">connecting…</span> · clock <time id="clock">–</time>
    <span class="buttons" aria-label="Advance the clock">
      <button type="button" data-advance="1000" disabled>+1 s</button>
      <button type="button" data-advance="60000" disabled>+1 min</button>
      <button type="button" data-advance="1800000" disabled>+30 min</button>
    </span></p>
  <p id="error" role="alert" hidden></p>
</header>
<form id="token-form" hidden>
  <p>This mock has an admin token. Enter it to see its data: the page keeps it in memory only.</p>
  <label>Admin token <input id="token" type="password" autocomplete="off" required></label>
  <button type="submit">Show data</button>
  <p id="token-refused" role="alert" hidden>The mock refused that token: it is the one given to the mock by <code>--admin-token-file</code>, <code>PROFILE_ARTICLES_MOCK_ADMIN_TOKEN</code>, <code>--admin-token</code> or <code>adminToken</code> in its config.</p>
</form>
<main id="data" hidden>
  <section><h2>Accounts</h2>
    <table id="accounts"><thead><tr><th>account</th><th>balance</th><th>held by jobs</th><th>purchased</th><th>429s</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Pending checkouts</h2>
    <table id="checkouts"><thead><tr><th>session</th><th>account</th><th>credits</th><th>amount</th><th></th></tr></thead><tbody></tbody></table>
    <p class="empty" id="checkouts-empty">None.</p></section>
  <section><h2>Jobs <span class="count" id="jobs-count"></span></h2>
    <p class="pager"><label>status <select id="jobs-status"><option value="">any</option><option>queued</option><option>running</option><option>succeeded</option><option>failed</option><option>cancelled</option></select></label>
      <button type="button" id="jobs-newer">newer</button><button type="button" id="jobs-older">older</button></p>
    <table id="jobs"><thead><tr><th>job</th><th>account</th><th>profile</th><th>kind</th><th>status</th><th>credits</th><th>time left</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Ledger <span class="count" id="ledger-count"></span></h2>
    <p class="pager"><button type="button" id="ledger-newer">newer</button><button type="button" id="ledger-older">older</button></p>
    <table id="ledger"><thead><tr><th>#</th><th>time</th><th>account</th><th>kind</th><th>reason</th><th>delta</th><th>balance</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Requests</h2>
    <form id="journal-form" class="filters">
      <label>account <input name="account"></label><label>method <input name="method" size="6"></label>
      <label>path <input name="path"></label><label>status <input name="status" size="4" inputmode="numeric"></label>
      <label>idempotency key <input name="idempotency_key"></label><label>request id <input name="request_id"></label>
      <label>since <input name="since" placeholder="2026-01-01T00:00:00Z"></label><label>limit <input name="limit" size="4" value="50" inputmode="numeric"></label>
      <button type="submit">Filter</button></form>
    <table id="journal"><thead><tr><th>time</th><th>request id</th><th>account</th><th>method</th><th>path</th><th>status</th><th>idempotency key</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Stubs <span class="count" id="stubs-count"></span></h2>
    <table id="stubs"><thead><tr><th>stub</th><th>match</th><th>outcome</th><th>times left</th><th>priority</th><th>matched</th><th></th></tr></thead><tbody></tbody></table>
    <p class="empty" id="stubs-empty">None.</p></section>
  <section><h2>Fault rules</h2><pre id="faults"></pre></section>
</main>
<footer>Live from <code>/_mock/events</code>; the data is read from the control endpoints (<a href="https://www.npmjs.com/package/@profile-articles/mock-server" rel="noreferrer">the package's README</a>).</footer>
</body></html>
`;
