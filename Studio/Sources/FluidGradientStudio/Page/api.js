// The /v1 API from the page: requests with the bearer token when the server wants one,
// problem documents (RFC 9457) as data, and server-sent events read over fetch (EventSource
// cannot send an Authorization header).
"use strict";
window.FG = window.FG || {};

FG.api = (() => {
  const TOKEN_KEY = "fluidgradient-studio-token";
  let asking = null; // one token dialog at a time, shared by every request that got 401

  const token = () => sessionStorage.getItem(TOKEN_KEY);
  // Enter submits with Continue (the form's only submit button); Cancel closes without a token.
  document.querySelector('#token-dialog button[value="cancel"]').addEventListener("click", (event) => {
    event.target.closest("dialog").close("cancel");
  });

  /**
   * Asks for the bearer token in the page's dialog; resolves to it, or null when dismissed.
   * @param {boolean} refused whether the service refused the token sent, which the dialog says.
   */
  function askToken(refused) {
    if (asking) return asking;
    const dialog = document.getElementById("token-dialog");
    const input = dialog.querySelector("input");
    dialog.querySelector(".refused").hidden = !refused;
    asking = new Promise((resolve) => {
      input.value = "";
      dialog.addEventListener("close", () => {
        const value = dialog.returnValue === "ok" ? input.value.trim() : "";
        if (value) sessionStorage.setItem(TOKEN_KEY, value);
        asking = null;
        resolve(value || null);
      }, { once: true });
      dialog.returnValue = "";
      dialog.showModal();
      input.focus();
    });
    return asking;
  }

  /** A problem document from any failed response (a plain one-line problem when the body is not one). */
  async function problemOf(response) {
    let problem = null;
    try { problem = await response.json(); } catch (_) { /* not JSON */ }
    if (!problem || typeof problem !== "object") {
      problem = { status: response.status, title: response.statusText, detail: `HTTP ${response.status}` };
    }
    problem.status = problem.status || response.status;
    problem.retryAfter = Number(response.headers.get("Retry-After")) || null;
    return problem;
  }

  /**
   * Sends one request to the API.
   * @param {string} method HTTP method.
   * @param {string} path a path under the origin, such as `/v1/designs`.
   * @param {object} [options] `body` (object → JSON, Blob → as is), `signal`, `accept`.
   * @returns {Promise<Response>} the response; a 401 asks for the token (again, saying so, when
   *   the one sent was refused) and sends the request again, until the dialog is dismissed.
   */
  async function send(method, path, options = {}) {
    for (;;) {
      const used = token();
      const headers = {};
      if (used) headers.Authorization = "Bearer " + used;
      let body = options.body;
      if (body !== undefined && !(body instanceof Blob) && typeof body !== "string") {
        body = JSON.stringify(body);
        headers["Content-Type"] = "application/json";
      } else if (typeof body === "string") {
        headers["Content-Type"] = "application/json";
      } else if (body instanceof Blob) {
        headers["Content-Type"] = body.type || "application/octet-stream";
      }
      if (options.accept) headers.Accept = options.accept;
      const response = await fetch(path, { method, headers, body, signal: options.signal });
      if (response.status !== 401) return response;
      if (token() && token() !== used) continue; // another request's dialog got a newer token
      sessionStorage.removeItem(TOKEN_KEY);
      if (!(await askToken(Boolean(used)))) return response;
    }
  }

  /** JSON of a 2xx answer, or throws its problem (with `.problem` on the error). */
  async function json(method, path, options) {
    const response = await send(method, path, options);
    if (response.ok) return response.status === 204 ? null : response.json();
    const problem = await problemOf(response);
    const error = new Error(problem.detail || problem.title || `HTTP ${problem.status}`);
    error.problem = problem;
    throw error;
  }

  /**
   * Follows a `text/event-stream`, calling `onEvent(name, data)` for each event, until the
   * stream ends or `signal` aborts.
   */
  async function events(path, onEvent, signal) {
    const response = await send("GET", path, { signal, accept: "text/event-stream" });
    if (!response.ok) throw Object.assign(new Error("events"), { problem: await problemOf(response) });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) onEvent(name, data.join("\n"));
      }
    }
  }

  return { send, json, events, problemOf, token };
})();
