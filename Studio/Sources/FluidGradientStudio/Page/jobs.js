// Render jobs: the current design as a video, animated image or web bundle through
// POST /v1/jobs, its progress from the job's event stream (polling when the stream breaks),
// a cancel button (DELETE) and the download (GET /v1/jobs/{id}/result, once).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const format = $("job-format"), encodeSize = $("job-encode-size"), start = $("job-start"), cancel = $("job-cancel");
  const bar = $("job-progress"), label = $("job-label"), result = $("job-result");
  const terminal = new Set(["done", "failed", "cancelled"]);
  let job = null;
  let stream = null;

  const phases = { encoding: "Encoding", measuring: "Measuring", packing: "Packing" };

  // A bundle's steps as the job reports them: "AV1 40%, HEVC 55%, …, posters 3/3", "files 3/7".
  function stepsText(steps) {
    if (!Array.isArray(steps) || steps.length === 0) return "";
    return steps.map((step) => step.total > 20
      ? `${step.name} ${Math.floor((100 * step.done) / Math.max(1, step.total))}%`
      : `${step.name} ${step.done}/${step.total}`).join(", ");
  }

  function show(next) {
    job = next;
    // A job that ended without its file shows no progress: the bar empties.
    const stopped = job.state === "cancelled" || job.state === "failed";
    const share = stopped ? 0 : Number(job.progress) || 0;
    const percent = Math.round(share * 100);
    bar.value = share;
    const phase = phases[job.phase] || "Starting";
    // One step is the frames of a video, which the percentage says; a bundle lists its steps.
    const steps = (job.steps || []).length > 1 || job.phase === "measuring" ? stepsText(job.steps) : "";
    bar.setAttribute("aria-valuetext", stopped ? job.state : `${job.state}, ${phase.toLowerCase()}, ${percent}%`);
    const words = { queued: "Queued", running: `${phase} ${percent}%` + (steps ? ` (${steps})` : ""),
      done: "Done", failed: "Failed", cancelled: "Cancelled" };
    label.textContent = job.state === "failed" && job.error
      ? `Failed: ${job.error.detail || job.error.title}` : words[job.state] || job.state;
    label.classList.toggle("bad", job.state === "failed");
    const running = !terminal.has(job.state);
    cancel.hidden = !running;
    start.disabled = running;
    result.hidden = job.state !== "done";
    if (job.state === "done") {
      result.href = `/v1/jobs/${job.id}/result`;
      result.download = job.file || `studio.${job.format}`;
      const size = !job.bytes ? "" : job.bytes < 1048576 ? ` (${Math.max(1, Math.round(job.bytes / 1024))} KB)`
        : ` (${(job.bytes / 1048576).toFixed(1)} MB)`;
      result.textContent = `Download ${job.file || job.format}${size}`;
    }
  }

  function fail(message) {
    label.textContent = message;
    label.classList.add("bad");
    start.disabled = false;
    cancel.hidden = true;
  }

  async function follow(id) {
    stream?.abort();
    stream = new AbortController();
    try {
      await FG.api.events(`/v1/jobs/${id}/events`, (name, data) => {
        if (name === "progress" || name === "message") show(JSON.parse(data));
      }, stream.signal);
    } catch (error) {
      if (error.name === "AbortError") return;
    }
    // The stream ended or broke before the end: ask until the job is over.
    while (job && job.id === id && !terminal.has(job.state)) {
      try {
        show(await FG.api.json("GET", `/v1/jobs/${id}`));
      } catch (error) {
        fail(error.problem?.detail || error.message);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  start.addEventListener("click", async () => {
    if (!studio.designId) return fail("Nothing to render yet.");
    result.hidden = true;
    label.classList.remove("bad");
    label.textContent = "Starting…";
    start.disabled = true;
    try {
      const created = await FG.api.json("POST", "/v1/jobs", {
        body: { design: studio.designId, format: format.value, encodeSize: encodeSize.value } });
      show(created);
      follow(created.id);
    } catch (error) {
      const problem = error.problem || { detail: error.message };
      fail(problem.status === 503 && problem.retryAfter
        ? `The render queue is full; try again in ${problem.retryAfter} s.` : problem.detail || problem.title);
    }
  });

  cancel.addEventListener("click", async () => {
    if (!job) return;
    try {
      await FG.api.json("DELETE", `/v1/jobs/${job.id}`);
      stream?.abort();
      show(Object.assign({}, job, { state: "cancelled" }));
    } catch (error) {
      fail(error.problem?.detail || error.message);
    }
  });

  // With a bearer token a plain link cannot send it, so the file is fetched and handed over.
  result.addEventListener("click", async (event) => {
    if (!FG.api.token()) return;
    event.preventDefault();
    const response = await FG.api.send("GET", result.getAttribute("href"));
    if (!response.ok) return fail((await FG.api.problemOf(response)).detail);
    const url = URL.createObjectURL(await response.blob());
    const link = FG.dom.el("a", { href: url, download: result.download });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
  // The service removes a job's files once they are sent: the link is good for one download.
  result.addEventListener("click", () => setTimeout(() => {
    result.hidden = true;
    label.textContent = "Downloaded";
  }, 0));
})();
