// Match (the seed's "target versus yours"): a target, an image or another preset, shown beside
// the current design at one instant, with the match score (the colours each holds and where
// they lie, on a 0 to 100 scale with words for its ranges), `compare`'s numbers, and its
// difference map with a legend, from POST /v1/compare. It compares again after every new design.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const targetImage = $("match-target"), yoursImage = $("match-yours"), diffImage = $("match-diff");
  const scoreBox = $("match-score"), details = $("match-details"), verdict = $("match-verdict");
  const marker = $("match-marker"), legendMax = $("legend-max");
  const presetMenu = $("match-preset"), timeField = $("match-time");
  let target = null; // { ref: {image} | {design}, width, height, name }
  let timer = null;
  let generation = 0;

  /** An image from the API as an object URL (fetched, so a bearer token goes with it). */
  async function objectURL(path) {
    const response = await FG.api.send("GET", path);
    if (!response.ok) throw Object.assign(new Error("image"), { problem: await FG.api.problemOf(response) });
    return URL.createObjectURL(await response.blob());
  }

  function setImage(img, url) {
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    if (url) img.src = url;
    else img.removeAttribute("src");
    img.closest("figure").classList.toggle("empty", !url);
  }

  const instant = () => {
    const t = Number(timeField.value);
    return isFinite(t) && t >= 0 ? t : 0;
  };
  const previewSize = () => FG.Preview.fit(...(FG.model.parseSize(studio.preset().size) || [1920, 1080]));

  async function compare() {
    if (!target || !studio.designId) return;
    const mine = ++generation;
    const [w, h] = target.width ? [target.width, target.height] : previewSize();
    const t = instant();
    details.textContent = "Comparing…";
    try {
      const frame = (id) => objectURL(`/v1/designs/${id}/frames/${w}x${h}/${t}.png`);
      if (target.ref.design) setImage(targetImage, await frame(target.ref.design));
      const yours = await frame(studio.designId);
      const report = await FG.api.json("POST", "/v1/compare", {
        body: { design: studio.designId, target: target.ref, time: t, width: w, height: h } });
      if (mine !== generation) return URL.revokeObjectURL(yours);
      setImage(yoursImage, yours);
      setImage(diffImage, report.differenceMap || "");
      showScore(report.match ? report.match.score : null);
      legendMax.textContent = `${Number(report.largestDifference).toFixed(0)} levels (the largest here)`;
      // Identical frames have an infinite PSNR, which JSON writes as null (or leaves out).
      const psnr = typeof report.psnr === "number" && isFinite(report.psnr) ? report.psnr.toFixed(1) : "∞";
      // The names of `fluidgradient compare --json`.
      const deltaE = `ΔE mean ${Number(report.meanDeltaE).toFixed(3)}, max ${Number(report.largestDeltaE).toFixed(3)}`;
      const look = report.match ? `colours ${Number(report.match.colours).toFixed(3)}, layout `
        + `${Number(report.match.layout).toFixed(3)} (OKLab) · ` : "";
      details.textContent = `${look}pixel by pixel: score ${Number(report.score).toFixed(1)}, PSNR ${psnr} dB · `
        + `${deltaE} · largest difference ${report.largestDifference} levels · ${w}×${h} at ${t} s`;
    } catch (error) {
      if (mine === generation) details.textContent = `Could not compare: ${error.problem?.detail || error.message}`;
    }
  }

  const soon = () => { clearTimeout(timer); timer = setTimeout(compare, 250); };

  /** The score, its place on the scale and the words for its range. */
  function showScore(score) {
    const known = typeof score === "number" && isFinite(score);
    scoreBox.textContent = known ? score.toFixed(1) : "–";
    marker.hidden = !known;
    if (!known) { verdict.textContent = ""; return; }
    marker.style.left = `${Math.min(100, Math.max(0, score))}%`;
    verdict.textContent = score >= 90 ? "nearly the same" : score >= 70 ? "close in colour and layout"
      : score >= 40 ? "related" : "different";
  }

  /** A PNG (or any image, converted to PNG on a canvas) as the target. */
  async function loadImage(file) {
    let png = file;
    const bitmap = await createImageBitmap(file, { colorSpaceConversion: "none" });
    if (file.type !== "image/png") {
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [bitmap.width, bitmap.height];
      canvas.getContext("2d").drawImage(bitmap, 0, 0);
      png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    }
    try {
      const stored = await FG.api.json("POST", "/v1/images", { body: new Blob([png], { type: "image/png" }) });
      const [width, height] = [stored.width || bitmap.width, stored.height || bitmap.height];
      target = { ref: { image: stored.id }, width, height };
      setImage(targetImage, URL.createObjectURL(png));
      presetMenu.value = "";
      compare();
    } catch (error) {
      details.textContent = `Could not load the target: ${error.problem?.detail || error.message}`;
    }
  }

  $("match-open").addEventListener("click", () => $("match-file").click());
  $("match-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) loadImage(file);
    e.target.value = "";
  });
  const drop = document.querySelector("[data-target-drop]");
  drop.addEventListener("dragover", (e) => { if (e.dataTransfer.types.includes("Files")) e.preventDefault(); });
  drop.addEventListener("drop", (e) => {
    const file = [...e.dataTransfer.files].find((f) => f.type.startsWith("image/"));
    if (!file) return;
    e.preventDefault();
    document.body.classList.remove("dropping");
    loadImage(file);
  });
  presetMenu.addEventListener("change", () => {
    const option = presetMenu.selectedOptions[0];
    if (!option || !option.value) return;
    target = { ref: { design: option.dataset.design }, width: 0, height: 0 };
    compare();
  });
  timeField.addEventListener("change", compare);
  $("match-clear").addEventListener("click", () => {
    target = null;
    generation += 1;
    for (const img of [targetImage, yoursImage, diffImage]) setImage(img, "");
    showScore(null);
    details.textContent = "Load a target image or choose a preset to compare with.";
    presetMenu.value = "";
  });

  /** Fills the preset menu from the service's list. */
  function presetsAre(presets) {
    presetMenu.append(...presets.map((p) => FG.dom.el("option", { value: p.name, "data-design": p.design }, p.name)));
  }
  studio.onDesign(soon);
  Object.assign(window.studio, { compare, loadTarget: loadImage, matchPresets: presetsAre });
})();
