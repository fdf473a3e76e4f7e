// Render jobs: the current design as a video, animated image or web bundle through
// POST /v1/jobs, at the Export panel's size (the design posted at that size, its look kept),
// its progress from the job's event stream (polling when the stream breaks), a cancel button
// (DELETE) and the download (GET /v1/jobs/{id}/result, once). A bundle is downloaded by the
// page, which takes its HTML snippet from the zip and then hands the file over.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const format = $("job-format"), encodeSize = $("job-encode-size"), start = $("job-start"), cancel = $("job-cancel");
  const bar = $("job-progress"), label = $("job-label"), result = $("job-result");
  const terminal = new Set(["done", "failed", "cancelled"]);
  let job = null;
  let stream = null;

  const phases = { encoding: "Encoding", measuring: "Measuring", packing: "Packing" };

  // A bundle's steps as the job reports them: "AV1 done, HEVC 55%, …, posters 3/3", "files 3/7".
  function stepsText(steps) {
    if (!Array.isArray(steps) || steps.length === 0) return "";
    return steps.map((step) => step.done >= step.total && step.total > 20 ? `${step.name} done`
      : step.total > 20 ? `${step.name} ${Math.floor((100 * step.done) / Math.max(1, step.total))}%`
      : `${step.name} ${step.done}/${step.total}`).join(", ");
  }

  // The job's phase and share as the library reports them, with the time taken. Once the share
  // is 100% the service still finishes the file (a video's encoder, a bundle's zip), which can
  // take a while: the page says so, with the bar indeterminate and the time counted each second.
  let started = 0;
  let ticker = 0;

  function elapsed() {
    const seconds = Math.max(0, Math.round((performance.now() - started) / 1000));
    return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  }

  function words(job, percent) {
    if (job.state === "failed") return job.error ? `Failed: ${job.error.detail || job.error.title}` : "Failed";
    if (job.state === "queued") return "Queued: waiting for a free render thread";
    if (job.state !== "running") return { done: "Done", cancelled: "Cancelled" }[job.state] || job.state;
    if (percent >= 100) {
      const files = job.format === "bundle" ? "the bundle is written; zipping it" : "the encoder is finishing the file";
      return `Every frame is rendered; ${files} (${elapsed()} so far)`;
    }
    const phase = phases[job.phase] || "Starting";
    // One step is the frames of a video, which the percentage says; a bundle lists its steps.
    const steps = (job.steps || []).length > 1 || job.phase === "measuring" ? stepsText(job.steps) : "";
    return `${phase} ${percent}% (${steps ? steps + "; " : ""}${elapsed()})`;
  }

  function show(next) {
    job = next;
    const progress = Number(job.progress) || 0;
    const percent = Math.round(progress * 100);
    const running = !terminal.has(job.state);
    const finishing = job.state === "running" && percent >= 100;
    // A job that did not finish shows no part done; one finishing its files has no share to show.
    if (finishing) bar.removeAttribute("value");
    else bar.value = job.state === "done" ? 1 : running ? progress : 0;
    bar.setAttribute("aria-valuetext", finishing ? "finishing the files" : `${job.state}, ${running ? percent : 0}%`);
    label.textContent = words(job, percent);
    label.classList.toggle("bad", job.state === "failed");
    clearInterval(ticker);
    if (finishing) ticker = setInterval(() => { label.textContent = words(job, percent); }, 1000);
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
    clearInterval(ticker);
    bar.value = 0;
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

  /** The design to render: the current one, or the current one posted at the chosen size. */
  async function designAtSize() {
    const size = studio.exportSize();
    if (!size) throw new Error("choose a size first (see Size, above)");
    const preset = studio.sizedPreset(size);
    return preset.size === studio.preset().size ? studio.designId : (await studio.register(preset)).id;
  }

  start.addEventListener("click", async () => {
    if (!studio.designId) return fail("Nothing to render yet.");
    result.hidden = true;
    label.classList.remove("bad");
    label.textContent = "Starting…";
    start.disabled = true;
    try {
      const design = await designAtSize();
      const created = await FG.api.json("POST", "/v1/jobs", {
        body: { design, format: format.value, encodeSize: encodeSize.value } });
      started = performance.now();
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

  // With a bearer token a plain link cannot send it, and a bundle's snippet is read from its
  // zip, so then the file is fetched and handed over.
  result.addEventListener("click", async (event) => {
    if (!FG.api.token() && job?.format !== "bundle") return;
    event.preventDefault();
    const response = await FG.api.send("GET", result.getAttribute("href"));
    if (!response.ok) return fail((await FG.api.problemOf(response)).detail);
    const blob = await response.blob();
    if (job?.format === "bundle") studio.snippets?.fromBundle(blob);
    FG.dom.download(blob, result.download);
  });
  /** What "smaller where the blur allows" will do for this design, in words. */
  function explainEncodeSize() {
    const preset = studio.preset();
    const background = preset.background;
    const stops = typeof background === "object" && background ? background.stops || [] : [];
    const hardStop = stops.some((s, i) => i > 0 && Number(s.location) === Number(stops[i - 1].location));
    let reason = null;
    if (preset.edges === "clamp") reason = "its edges repeat the edge pixels (At the frame's edges: Repeat)";
    else if (typeof background === "object" && background?.type === "conic") reason = "its background is a conic gradient";
    else if (hardStop) reason = "its background has a hard stop (two stops at one position)";
    const help = $("encode-size-help");
    help.textContent = encodeSize.value === "full" ? "The file holds every pixel of the size above."
      : reason ? `This design keeps the full size: ${reason}, which a smaller file cannot hold.`
        : "The file is rendered smaller (players scale it up) when the blur hides the difference: within one "
          + "level of the full-size frame. A sharp design (low blur) keeps the full size.";
  }
  encodeSize.addEventListener("change", explainEncodeSize);
  studio.onDesign(explainEncodeSize);
  $("bundle-for-snippet").addEventListener("click", () => {
    format.value = "bundle";
    start.click();
  });

  // The service removes a job's files once they are sent: the link is good for one download.
  result.addEventListener("click", () => setTimeout(() => {
    result.hidden = true;
    label.textContent = "Downloaded";
  }, 0));
})();
