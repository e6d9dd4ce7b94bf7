// The dashboard's sign-in form: the merchant pastes the shop's secret key; the form posts it once
// (same origin) and the answer is a session cookie. No script on this page touches the key.
import { html, type Html } from '../../html.js';
import { dashboardLayout } from './layout.js';

export function signInPage(problem?: string): Html {
  return dashboardLayout(
    'Sign in',
    html`<main class="sign-in">
      <h1>Pairwise dashboard</h1>
      <p>Sign in with your shop's secret key (<code>sk_…</code>). It is sent once over this form and never kept in the page.</p>
      ${problem === undefined ? '' : html`<p class="problem" role="alert">${problem}</p>`}
      <form method="post" action="/dashboard/sign-in">
        <label for="key">Secret key</label>
        <input id="key" name="key" type="password" autocomplete="current-password" required pattern="sk_.+" spellcheck="false">
        <button type="submit">Sign in</button>
      </form>
    </main>`,
  );
}
