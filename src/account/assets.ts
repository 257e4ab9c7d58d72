import express, { type Router } from 'express';

/** Where the account pages' stylesheet and scripts are served: files of this origin, so the pages' CSP can
 * forbid every inline style and script. */
export const ASSET_PATH = '/account/assets/';

const CSS = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2329;background:#f6f7f9}
header{background:#264b5d;color:#fff;padding:10px 24px;display:flex;flex-wrap:wrap;gap:8px 16px;justify-content:space-between;align-items:center}
header a{color:#fff}
header nav{display:flex;flex-wrap:wrap;gap:4px 14px}
header nav a[aria-current=page]{font-weight:bold;text-decoration:none;border-bottom:2px solid #fff}
header button{color:#fff;background:transparent;border:1px solid #fff;border-radius:3px;cursor:pointer;font:inherit}
.brand{font-weight:bold;text-decoration:none}
.account{display:flex;flex-wrap:wrap;gap:8px;align-items:center;overflow-wrap:anywhere}
main{padding:24px;max-width:1100px}
a{color:#1d4f6b}
.table-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #dde1e6;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4}
td.num,th.num{text-align:right;white-space:nowrap}
td.actions{white-space:nowrap}
form.inline{display:inline}
.notice{background:#fff7d6;border:1px solid #e5c84a;padding:12px;margin:0 0 16px}
.error{background:#fde8e8;border:1px solid #b3261e;padding:12px;margin:0 0 16px}
.field-error{display:block;color:#8c1d18;font-weight:600}
code.key{display:block;font-size:16px;background:#fff;padding:6px;border:1px solid #8a8f96;user-select:all;overflow-wrap:anywhere;word-break:break-all}
code{overflow-wrap:anywhere}
h1,h2,dd,li,p{overflow-wrap:anywhere}
dd{margin-left:16px}
fieldset{background:#fff;border:1px solid #dde1e6;margin:16px 0;padding:12px;min-width:0}
label.field{display:inline-block;min-width:180px}
input,select,button{font:inherit;max-width:100%;box-sizing:border-box}
button{padding:4px 10px;cursor:pointer}
.hint{color:#4a525a;font-size:14px}
.danger{background:#b3261e;color:#fff;border:1px solid #8c1d18;border-radius:3px}
.status-active,.status-completed{color:#1e6b34;font-weight:600}
.status-revoked,.status-failed{color:#8c1d18;font-weight:600}
.status-expired,.status-queued,.status-running{color:#5c4a00;font-weight:600}
ol.steps li{margin:4px 0}
ul.tree,ul.tree ul{list-style:none;padding-left:18px;margin:2px 0}
ul.tree{padding-left:0}
.pager{display:flex;gap:16px;margin:12px 0}
@media (max-width:600px){main{padding:12px}header{padding:8px 12px}label.field{min-width:0;display:block}}
`;

/** The copy button of a key shown once: present only when JavaScript runs (the key stays selectable without). */
const ACCOUNT_JS = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  var target = document.getElementById(button.getAttribute('data-copy'));
  if (!target || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      button.textContent = 'Copied';
    }, function () {
      button.textContent = 'Copy failed: select the key and copy it';
    });
  });
});
`;

/** Follows one job over graphql-ws (jobUpdated, resuming after the steps the page already shows); on its final
 * state the page reloads to show the result as the server renders it. A socket the server closes (session ended,
 * 4401) says so. */
const JOB_JS = `
(function () {
  var root = document.querySelector('[data-job]');
  if (!root) return;
  var ctId = root.getAttribute('data-job');
  var seq = Number(root.getAttribute('data-seq') || '0');
  var done = ['completed', 'failed'];
  if (done.indexOf(root.getAttribute('data-status')) >= 0) return;
  var steps = document.getElementById('steps');
  var status = document.getElementById('job-status');
  var step = document.getElementById('job-step');
  var live = document.getElementById('live');
  var finished = false;
  var ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  var query = 'subscription Follow($ctId: String!, $afterSeq: Int) { jobUpdated(ctId: $ctId, afterSeq: $afterSeq) { seq status step error updated } }';
  live.textContent = 'Connecting for live updates…';
  ws.onopen = function () { ws.send(JSON.stringify({ type: 'connection_init', payload: {} })); };
  ws.onmessage = function (event) {
    var message = JSON.parse(event.data);
    if (message.type === 'connection_ack') {
      live.textContent = 'Following this job live.';
      ws.send(JSON.stringify({ id: 'job', type: 'subscribe', payload: { query: query, variables: { ctId: ctId, afterSeq: seq } } }));
    } else if (message.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong' }));
    } else if (message.type === 'next' && message.payload && message.payload.data) {
      var job = message.payload.data.jobUpdated;
      if (job.seq <= seq) return;
      seq = job.seq;
      var item = document.createElement('li');
      item.setAttribute('data-seq', String(job.seq));
      item.className = 'live';
      item.textContent = job.status + (job.step ? ' · ' + job.step : '') + ' (' + job.updated + ')';
      steps.appendChild(item);
      status.textContent = job.status;
      status.className = 'status-' + job.status;
      step.textContent = job.step || '—';
      if (done.indexOf(job.status) >= 0) {
        finished = true;
        live.textContent = 'The job ' + job.status + '. Loading its result…';
        ws.close(1000);
        location.reload();
      }
    } else if (message.type === 'error') {
      live.textContent = 'Live updates failed: ' + (message.payload && message.payload[0] ? message.payload[0].message : 'unknown error') + '. Reload the page.';
    }
  };
  ws.onclose = function (event) {
    if (finished) return;
    live.textContent = event.code === 4401 || event.code === 4403
      ? 'Your session ended: live updates stopped. Sign in again to follow this job.'
      : 'Live updates stopped. Reload the page to see the latest state.';
    live.setAttribute('data-closed', String(event.code));
  };
})();
`;

const FILES: Record<string, { type: string; body: string }> = {
  'account.css': { type: 'text/css', body: CSS },
  'account.js': { type: 'text/javascript', body: ACCOUNT_JS },
  'job.js': { type: 'text/javascript', body: JOB_JS },
};

export function assetsRouter(): Router {
  const router = express.Router();
  router.get(`${ASSET_PATH}:name`, (req, res, next) => {
    const file = FILES[req.params.name];
    if (!file) return next();
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type(file.type).send(file.body);
  });
  return router;
}
