// The API management dashboard. Plain browser JavaScript, no build step: it
// calls the gateway's /api/v1/auth endpoints with the session token from
// sign-in, kept in sessionStorage (so it ends with the tab).
'use strict';

const SESSION_KEY = 'dashboard.session';
const $ = (id) => document.getElementById(id);

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = false;
  $('notice').textContent = '';
}

function showNotice(message) {
  $('error').hidden = true;
  $('notice').textContent = message;
}

/** Turns an RFC 9457 problem (or anything else that went wrong) into one readable message. */
function describeFailure(status, body) {
  if (body && typeof body === 'object' && body.detail) {
    const fields = Array.isArray(body.errors) ? body.errors.map((e) => `${e.field}: ${e.message}`) : [];
    return [`${body.title || 'Error'} (${status}): ${body.detail}`, ...fields].join('\n');
  }
  return `The request failed with status ${status}.`;
}

async function call(method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    // Reference answers are cacheable for minutes; the dashboard must show what the key gets now
    // (a revoked key, 401), so it always revalidates with the gateway, which checks the key first.
    response = await fetch(path, {
      method,
      headers,
      cache: 'no-cache',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error('The gateway could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

function session() {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null');
  } catch {
    return null;
  }
}

/** What an account call throws when its answer came after its session ended on this page; `run` drops it. */
class SessionChanged extends Error {}

/** Calls an account endpoint with the session; an ended session sends the user back to sign-in. */
async function accountCall(method, path, body) {
  const current = session();
  if (!current) throw new Error('You are not signed in.');
  const result = await call(method, path, { body, token: current.token });
  // Signed out (or in as someone else) meanwhile: the answer belongs to a session this page no longer shows.
  if (session()?.token !== current.token) throw new SessionChanged();
  if (result.status === 401) {
    sessionStorage.removeItem(SESSION_KEY);
    render();
    throw new Error('Your session has ended. Sign in again.');
  }
  if (!result.ok) throw new Error(describeFailure(result.status, result.body));
  return result.body;
}

const formatTime = (iso) => (iso ? new Date(iso).toLocaleString() : 'never');

function showNewKey(key) {
  $('new-key-value').textContent = key;
  $('new-key-panel').hidden = false;
  $('try-key').value = key;
  $('copy-key').focus();
}

const COLUMNS = ['Prefix', 'Name', 'Created', 'Last used', 'Requests', 'Limits'];

async function loadKeys() {
  const { keys } = await accountCall('GET', '/api/v1/auth/keys');
  const body = $('keys-body');
  body.replaceChildren();
  for (const key of keys) {
    const row = document.createElement('tr');
    const { rateLimit, dailyQuota, concurrencyLimit } = key.limits;
    const limits = `${rateLimit} a minute, ${dailyQuota} a day, ${concurrencyLimit} at once`;
    const texts = [key.prefix, key.name, formatTime(key.createdAt), formatTime(key.lastUsedAt), String(key.requestCount), limits];
    texts.forEach((text, index) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      // At phone width each row is a stack of cells, each labelled by its column (dashboard.css).
      cell.dataset.label = COLUMNS[index];
      row.append(cell);
    });
    const actions = document.createElement('td');
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'danger';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke key ${key.prefix}`);
    revoke.addEventListener('click', () => run(() => revokeKey(key)));
    actions.append(revoke);
    row.append(actions);
    body.append(row);
  }
  $('no-keys').hidden = keys.length > 0;
  $('keys-table').hidden = keys.length === 0;
}

async function revokeKey(key) {
  const label = key.name ? `${key.prefix} (${key.name})` : key.prefix;
  if (!window.confirm(`Revoke key ${label}? Every request with it will get 401 from now on. This cannot be undone.`)) return;
  await accountCall('DELETE', `/api/v1/auth/keys/${encodeURIComponent(key.id)}`);
  if ($('new-key-value').textContent.startsWith(`${key.prefix}_`)) $('new-key-panel').hidden = true;
  showNotice(`Key ${key.prefix} is revoked. Requests with it now get 401.`);
  await loadKeys();
}

const FEEDS_PATH = '/api/v1/calendar/feeds';

/** The calendar feed card, shown to the roles that read appointments (its data-role). */
async function loadFeeds() {
  if ($('feeds-card').hidden) return;
  const { feeds } = await accountCall('GET', FEEDS_PATH);
  const list = $('feeds-list');
  list.replaceChildren();
  for (const feed of feeds) {
    const item = document.createElement('li');
    item.textContent = `Feed created ${formatTime(feed.createdAt)} `;
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'danger';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke the feed created ${formatTime(feed.createdAt)}`);
    revoke.addEventListener('click', () => run(() => revokeFeed(feed)));
    item.append(revoke);
    list.append(item);
  }
  $('no-feeds').hidden = feeds.length > 0;
  // One feed is what a person needs; another comes after revoking it.
  $('create-feed').hidden = feeds.length > 0;
}

async function revokeFeed(feed) {
  if (!window.confirm('Revoke this calendar feed? Calendars subscribed to it stop updating. This cannot be undone.')) return;
  await accountCall('DELETE', `${FEEDS_PATH}/${encodeURIComponent(feed.id)}`);
  if ($('new-feed-url').dataset.feedId === feed.id) $('new-feed-panel').hidden = true;
  showNotice('The calendar feed is revoked: its URL no longer works.');
  await loadFeeds();
}

/** What a signed-in account sees: its keys, and its calendar feed. */
async function loadAccount() {
  await loadKeys();
  await loadFeeds();
}

function render() {
  const current = session();
  $('signed-out').hidden = Boolean(current);
  $('signed-in').hidden = !current;
  if (!current) return;
  $('account-email').textContent = current.user.email;
  $('account-role').textContent = current.user.role;
  $('account-verified').textContent = current.user.emailVerified ? 'verified' : 'not verified yet';
  $('verify-hint').hidden = Boolean(current.user.emailVerified);
  // A hint (or a card) is for the roles its data-role names, beside its text in index.html: the script knows no role.
  for (const hint of document.querySelectorAll('[data-role]')) hint.hidden = !hint.dataset.role.split(' ').includes(current.user.role);
}

async function signIn(email, password) {
  const result = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  if (!result.ok) throw new Error(describeFailure(result.status, result.body));
  sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token: result.body.token, user: result.body.user }));
  render();
  await loadAccount();
}

/** Runs an action and shows any failure; every failure ends up in the alert region. */
async function run(action) {
  try {
    $('error').hidden = true;
    await action();
  } catch (error) {
    if (error instanceof SessionChanged) return;
    showError(error instanceof Error ? error.message : String(error));
  }
}

function formValues(form) {
  return Object.fromEntries(new FormData(form).entries());
}

$('sign-up-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { email, password } = formValues(event.target);
    const result = await call('POST', '/api/v1/auth/register', { body: { email, password } });
    if (!result.ok) throw new Error(describeFailure(result.status, result.body));
    // Registration answers alike whether or not the email had an account (so it reveals none): signing in tells.
    try {
      await signIn(email, password);
    } catch (error) {
      throw new Error(`${error.message}\nIf this email has an account already, sign in with its password.`);
    }
    event.target.reset();
    const created = await accountCall('POST', '/api/v1/auth/keys', { name: 'first key' });
    showNotice('Your account is ready. Here is your first key.');
    showNewKey(created.key);
    await loadKeys();
  });
});

$('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { email, password } = formValues(event.target);
    await signIn(email, password);
    event.target.reset();
    showNotice('Signed in.');
  });
});

$('sign-out').addEventListener('click', () =>
  run(async () => {
    try {
      await accountCall('POST', '/api/v1/auth/logout');
    } finally {
      endedHere();
    }
    showNotice('Signed out.');
    $('sign-in-email').focus();
  }),
);

$('create-key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { name } = formValues(event.target);
    const created = await accountCall('POST', '/api/v1/auth/keys', name ? { name } : {});
    event.target.reset();
    showNotice(`Key ${created.prefix} created.`);
    showNewKey(created.key);
    await loadKeys();
  });
});

$('copy-key').addEventListener('click', () =>
  run(async () => {
    try {
      await navigator.clipboard.writeText($('new-key-value').textContent);
    } catch {
      throw new Error('The browser did not allow copying. Select the key and copy it by hand.');
    }
    showNotice('The key is copied to the clipboard.');
  }),
);

$('refresh-keys').addEventListener('click', () => run(loadKeys));

$('create-feed').addEventListener('click', () =>
  run(async () => {
    const created = await accountCall('POST', FEEDS_PATH, {});
    $('new-feed-url').textContent = created.url;
    $('new-feed-url').dataset.feedId = created.id;
    $('new-feed-panel').hidden = false;
    // At once, not after the list reloads: a second click meanwhile would make a second feed.
    $('create-feed').hidden = true;
    showNotice('Your calendar feed is ready. Copy its URL now: it is shown only this once.');
    await loadFeeds();
    $('copy-feed').focus();
  }),
);

$('copy-feed').addEventListener('click', () =>
  run(async () => {
    try {
      await navigator.clipboard.writeText($('new-feed-url').textContent);
    } catch {
      throw new Error('The browser did not allow copying. Select the URL and copy it by hand.');
    }
    showNotice('The feed URL is copied to the clipboard.');
  }),
);

/** Forgets the session here (the server ended it) and shows the sign-in forms. */
function endedHere() {
  sessionStorage.removeItem(SESSION_KEY);
  $('new-key-panel').hidden = true;
  $('new-feed-panel').hidden = true;
  $('try-key').value = '';
  render();
}

$('reset-request-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { email } = formValues(event.target);
    const result = await call('POST', '/api/v1/auth/password-reset', { body: { email } });
    if (!result.ok) throw new Error(describeFailure(result.status, result.body));
    event.target.reset();
    // The answer is the same whether or not the email has an account, and so is what the page shows of it.
    showNotice(result.body.detail);
  });
});

$('password-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { current, new: next } = formValues(event.target);
    await accountCall('POST', '/api/v1/auth/password', { current, new: next });
    event.target.reset();
    showNotice('Your password is changed. Every other session of your account has ended.');
  });
});

$('end-all-sessions').addEventListener('click', () =>
  run(async () => {
    await accountCall('POST', '/api/v1/auth/sessions/revoke-all');
    endedHere();
    showNotice('Every session of your account has ended, this one too. Sign in again to continue.');
    $('sign-in-email').focus();
  }),
);

/** The token of a mailed link (`#verify?token=…`, `#reset?token=…`) this page was opened with, or null. */
function linkOf(hash) {
  const match = /^#(verify|reset)\?token=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return match ? { kind: match[1], token: match[2] } : null;
}

let resetToken = null;

/** Acts on a mailed link: verifies at once, or asks for the new password. The token leaves the address bar. */
function followLink() {
  const link = linkOf(location.hash);
  if (!link) return;
  history.replaceState(null, '', location.pathname);
  if (link.kind === 'reset') {
    resetToken = link.token;
    $('reset-confirm').hidden = false;
    $('reset-password').focus();
    return;
  }
  run(async () => {
    const result = await call('POST', '/api/v1/auth/verify-email', { body: { token: link.token } });
    if (!result.ok) throw new Error(describeFailure(result.status, result.body));
    const current = session();
    if (current) {
      current.user.emailVerified = true;
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(current));
      render();
    }
    showNotice('Your email address is verified.');
  });
}

$('reset-confirm-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { password } = formValues(event.target);
    const result = await call('POST', '/api/v1/auth/password-reset/confirm', { body: { token: resetToken, password } });
    if (!result.ok) throw new Error(describeFailure(result.status, result.body));
    resetToken = null;
    event.target.reset();
    $('reset-confirm').hidden = true;
    endedHere();
    showNotice('Your new password is set, and every session of your account has ended. Sign in with it.');
    $('sign-in-email').focus();
  });
});

window.addEventListener('hashchange', followLink);

$('try-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(async () => {
    const { key, n } = formValues(event.target);
    if (!key) throw new Error('Paste an API key to run the query.');
    const query = new URLSearchParams({ b: '5' });
    if (n) query.set('n', n);
    $('try-status').textContent = 'Running…';
    const result = await call('GET', `/api/v1/diseases?${query}`, { token: key });
    $('try-status').textContent = `Status ${result.status}`;
    $('try-result').textContent = JSON.stringify(result.body, null, 2);
    if (!result.ok) throw new Error(describeFailure(result.status, result.body));
  });
});

render();
if (session()) run(loadAccount);
followLink();
